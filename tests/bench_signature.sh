#!/usr/bin/env bash
# The bench node count is a deterministic signature: two runs must print the same count.
set -euo pipefail
loa="$1"
first=$("$loa" bench --depth 4 | grep -o 'nodes [0-9]*')
second=$("$loa" bench --depth 4 | grep -o 'nodes [0-9]*')
echo "first: $first, second: $second"
[ -n "$first" ] && [ "$first" = "$second" ]

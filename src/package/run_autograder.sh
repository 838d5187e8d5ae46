#!/usr/bin/env bash
# Grades /autograder/submission with boardgrade and writes /autograder/results/results.json,
# whatever the submission does. AUTOGRADER_ROOT moves the whole layout (for trying it out).
root="${AUTOGRADER_ROOT:-/autograder}"
source_dir="$root/source"
results="$root/results"
mkdir -p "$results"
"$source_dir/boardgrade" grade "$root/submission" --specs "$source_dir/specs" \
    --format gradescope --out "$results/boardgrade" @ARGS@
status=$?
if [ -f "$results/boardgrade/results.json" ]; then
    cp "$results/boardgrade/results.json" "$results/results.json"
else
    cat > "$results/results.json" <<JSON
{"score": 0, "output": "The autograder could not grade this submission (boardgrade exit status $status). Please tell the course staff."}
JSON
fi
exit 0

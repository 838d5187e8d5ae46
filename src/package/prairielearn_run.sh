#!/usr/bin/env bash
# PrairieLearn's external-grader entrypoint: grades /grade/student with boardgrade and always
# writes /grade/results/results.json, whatever the submission does. PL_GRADE_ROOT moves the
# whole layout (for trying it out).
root="${PL_GRADE_ROOT:-/grade}"
here="$root/serverFilesCourse/boardgrade"
results="$root/results"
mkdir -p "$results"
# Only a file this script writes after grading is a result: nothing left there before counts.
rm -f "$results/results.json"
work="$(mktemp -d)"
[ -x "$here/boardgrade" ] || chmod +x "$here/boardgrade"
"$here/boardgrade" grade "$root/student" --one-submission --specs "$root/tests/specs" \
    --format prairielearn --out "$work" @ARGS@
status=$?
# 0: graded (whatever the grade); 3: the grader failed on it, and its results.json says so
# (gradable: false). Anything else is the grader's failure too, not the student's: the
# submission is reported as not gradable, so it costs no attempt.
if { [ "$status" -eq 0 ] || [ "$status" -eq 3 ]; } && [ -f "$work/results.json" ]; then
    cp "$work/results.json" "$results/results.json"
else
    cat > "$results/results.json" <<JSON
{"gradable": false, "score": 0, "message": "The autograder could not grade this submission (boardgrade exit status $status). Please tell the course staff.", "output": "", "tests": []}
JSON
fi
rm -rf "$work"
exit 0

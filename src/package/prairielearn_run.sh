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
[ -x "$here/boardgrade" ] || chmod +x "$here/boardgrade"
# The course's packages (requirements.txt beside this script) go into a virtual environment
# every user can run, whose Python grades the submission; an install that fails is the
# course's problem, so the submission is not gradable and costs no attempt.
# The environment lives as long as this script: it is removed however the script ends.
if [ -f "$here/requirements.txt" ]; then
    venv="$(mktemp -d /tmp/boardgrade-python.XXXXXX)" && trap 'rm -rf "$venv"' EXIT &&
        chmod 755 "$venv" &&
        python3 -m venv "$venv" &&
        "$venv/bin/pip" install --no-cache-dir --quiet -r "$here/requirements.txt" >&2 &&
        chmod -R go+rX "$venv" || {
        cat > "$results/results.json" <<JSON
{"gradable": false, "score": 0, "message": "The autograder could not install the course's Python packages (requirements.txt). Please tell the course staff.", "output": "", "tests": []}
JSON
        exit 0
    }
    export BOARDGRADE_PYTHON="$venv/bin/python3"
fi
# boardgrade closes this folder and the question's tests (the specs) to student programs,
# grades under a sandbox at least as strong as @SANDBOX@ (or, where the machine cannot give
# it, grades nothing and says why: gradable false, no attempt spent) and writes
# results.json itself from results no student process can reach.
"$here/boardgrade" prairielearn --run-grader --sandbox @SANDBOX@@NETWORK@ -- @ARGS@
status=$?
if [ ! -f "$results/results.json" ]; then
    cat > "$results/results.json" <<JSON
{"gradable": false, "score": 0, "message": "The autograder could not grade this submission (boardgrade exit status $status). Please tell the course staff.", "output": "", "tests": []}
JSON
fi
exit 0

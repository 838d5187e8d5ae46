#!/usr/bin/env bash
# Gradescope runs this as root. It hands over to boardgrade at once: bash reads a script while
# it runs it, so nothing may be left after the exec for a submission to rewrite. boardgrade
# then closes the source folder to student users, grades /autograder/submission under a
# sandbox at least as strong as @SANDBOX@ (or refuses, saying why), waits until no student
# process is left and writes /autograder/results/results.json itself.
# AUTOGRADER_ROOT moves the whole layout (for trying it out). The course's packages, when
# setup.sh installed them, come with the interpreter of their virtual environment.
[ -x /opt/boardgrade-python/bin/python3 ] && export BOARDGRADE_PYTHON=/opt/boardgrade-python/bin/python3
bin="${AUTOGRADER_ROOT:-/autograder}/source/boardgrade"
[ -x "$bin" ] || chmod +x "$bin"   # unzipping may drop the executable bit
exec "$bin" gradescope --run-autograder --sandbox @SANDBOX@@NETWORK@ -- @ARGS@

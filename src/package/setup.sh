#!/usr/bin/env bash
# Gradescope runs this once when it builds the autograder image (Ubuntu, as root).
# Submissions are Python 3; bubblewrap is boardgrade's strongest sandbox.
apt-get install -y python3 python3-venv bubblewrap
chmod +x /autograder/source/boardgrade /autograder/source/run_autograder
# The course's packages (its requirements.txt, when the zip has one) go into a virtual
# environment every user can run; run_autograder grades with its interpreter. A failed
# install fails the image's build, where the instructor sees it, not every submission.
if [ -f /autograder/source/requirements.txt ]; then
    python3 -m venv /opt/boardgrade-python || exit 1
    /opt/boardgrade-python/bin/pip install --no-cache-dir \
        -r /autograder/source/requirements.txt || exit 1
    chmod -R go+rX /opt/boardgrade-python
fi

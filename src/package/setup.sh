#!/usr/bin/env bash
# Gradescope runs this once when it builds the autograder image (Ubuntu, as root).
# Submissions are Python 3; bubblewrap is boardgrade's strongest sandbox.
apt-get install -y python3 bubblewrap
chmod +x /autograder/source/boardgrade /autograder/source/run_autograder

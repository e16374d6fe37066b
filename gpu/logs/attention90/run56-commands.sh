#!/usr/bin/env bash
# run56 (session 5): a second call of run55's sweep on the same binary, without the checks (run56/summary.log).
CHECKS=0 RUN=run56 bash gpu/logs/attention90/run55-commands.sh

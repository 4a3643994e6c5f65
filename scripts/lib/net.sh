# shellcheck shell=bash
# Network helpers shared by the test scripts.

# Prints a TCP port on 127.0.0.1 that was free a moment ago.
free_loopback_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

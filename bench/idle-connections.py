#!/usr/bin/env python3
# Log in N idle connections to a MariaDB socket (root, empty password,
# mysql_native_password) and print the server's resident memory per
# connection. Used by bench/idle-connection-memory.sh.
import socket, struct, sys, time
def login(sock_path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sock_path)
    def read_packet():
        hdr = b''
        while len(hdr) < 4: hdr += s.recv(4 - len(hdr))
        n = hdr[0] | hdr[1] << 8 | hdr[2] << 16; seq = hdr[3]
        body = b''
        while len(body) < n: body += s.recv(n - len(body))
        return seq, body
    seq, hs = read_packet()
    caps = 0x00000200 | 0x00008000 | 0x00080000 | 0x00000001 | 0x00000004  # PROTOCOL_41|SECURE_CONN|PLUGIN_AUTH|LONG_PASSWORD|LONG_FLAG
    body = struct.pack('<IIB23x', caps, 1 << 24, 33) + b'root\0' + b'\0' + b'mysql_native_password\0'
    s.sendall(struct.pack('<I', len(body))[:3] + bytes([seq + 1]) + body)
    seq, ok = read_packet()
    if ok[0] != 0: raise SystemExit('login failed: %r' % ok[:80])
    return s
def rss(pid):
    for l in open('/proc/%d/status' % pid):
        if l.startswith('VmRSS:'): return int(l.split()[1]) * 1024
sock, pid, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
conns = [login(sock) for _ in range(50)]
time.sleep(1); before = rss(pid)
conns += [login(sock) for _ in range(n)]
time.sleep(2); after = rss(pid)
print('%d idle connections: %.1f KiB each (RSS %d -> %d)' % (n, (after - before) / n / 1024, before, after))

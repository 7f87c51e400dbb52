#!/bin/sh
# Makes the keys once (the sftp-keys volume keeps them across restarts), then runs sshd in the
# foreground. The proxy (uid 10001 in the RACS image) reads id_ed25519 and known_hosts from the
# same volume, mounted read-only.
set -eu
if [ ! -f /keys/host_ed25519 ]; then
  ssh-keygen -q -t ed25519 -N "" -C sftp-host -f /keys/host_ed25519
  ssh-keygen -q -t ed25519 -N "" -C racs-proxy -f /keys/id_ed25519
  cp /keys/id_ed25519.pub /keys/authorized_keys
  echo "sftp $(cat /keys/host_ed25519.pub)" >/keys/known_hosts
  chown 10001 /keys/id_ed25519
  chmod 600 /keys/id_ed25519
  chmod 644 /keys/authorized_keys /keys/known_hosts
fi
# A new sftp-data volume is root's; the repository directory must be the login user's.
chown racs:racs /srv/racs
exec /usr/sbin/sshd -D -e

/**
 * The storage emulators RACS runs as real processes on 127.0.0.1, for {@code racs demo --clouds}
 * and for the tests: Azurite (Azure Blob Storage) and fake-gcs-server (Google Cloud Storage), each
 * from the binary {@code scripts/provision.sh} installs at its pinned version, and OpenSSH's sshd;
 * {@link MinaSftpServer} is an SFTP server in the JVM instead, for the demo where no sshd is
 * provisioned. {@link ToxiproxyServer} is no storage but the TCP fault proxy the tests put between
 * a repository and its server, driven through {@link Toxiproxy} with {@link Toxic}s. Each runs as
 * an {@link io.racs.repos.process.ServerProcess}, the process lifecycle MinIO's servers share.
 */
package io.racs.repos.emulator;

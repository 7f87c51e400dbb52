/**
 * The {@code sftp} backend: a repository in one directory of an SSH server over SFTP, through
 * Apache MINA SSHD's client ({@link io.racs.repos.sftp.SftpRepository}), with its settings ({@link
 * io.racs.repos.sftp.SftpOptions}). It owns the connection pool, the host-key check against a
 * {@code known_hosts} file, the remote layout (the {@code fs} backend's {@link
 * io.racs.repos.KeyCodec} safe names), writes through temporary files renamed into place, and the
 * one translation of SSH and SFTP errors into repository error kinds.
 *
 * <p>It is the only package of this module that knows MINA SSHD; it must not know the other
 * backends, configuration files or its callers.
 */
package io.racs.repos.sftp;

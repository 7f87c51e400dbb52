/**
 * The {@code fs} backend: a repository in one local directory ({@link
 * io.racs.repos.fs.FsRepository}). It owns the on-disk layout (each key a path of {@link
 * io.racs.repos.KeyCodec} safe names under the root, so that no key can name anything outside it),
 * writes through temporary files renamed into place, durability ({@link io.racs.repos.fs.Syncer}:
 * file and directory fsync before a write is acknowledged), refusing symbolic links, and the
 * translation of file-system errors into repository error kinds.
 *
 * <p>It must not know the other backends, configuration files or its callers; what it stores is
 * opaque bytes under keys.
 */
package io.racs.repos.fs;

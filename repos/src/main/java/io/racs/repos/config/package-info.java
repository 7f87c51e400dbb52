/**
 * The {@code repositories:} section of a RACS configuration file: reading it (YAML, with {@code
 * ${env:NAME}} references) into {@link io.racs.repos.config.RepositorySetConfig}, the backend and
 * decorator settings of each repository, the size and duration units every file and command line
 * use ({@link io.racs.repos.config.Units}), one-line errors naming the file, the repository and the
 * field ({@link io.racs.repos.config.ConfigException}), and {@link
 * io.racs.repos.config.RepositoryFactory}, which builds the configured repositories.
 *
 * <p>It keeps the rest of the file unread for its owners: it must not know the proxy's {@code
 * array:} and {@code server:} sections or the benchmark's options, and building a repository here
 * does no I/O.
 */
package io.racs.repos.config;

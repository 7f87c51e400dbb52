/**
 * The users of the array as records on its repositories (issue #40, docs/access.md "Users"): one
 * record per change of a user, on a write quorum through the one commit routine, the newest of a
 * user on a write quorum deciding, as the array records do. The store knows nothing of policies or
 * of how a secret is sealed: documents and secrets are opaque text, judged and sealed above it
 * ({@code io.racs.proxy.users}).
 */
package io.racs.proxy.store.users;

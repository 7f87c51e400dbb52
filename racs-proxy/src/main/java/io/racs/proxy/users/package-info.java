/**
 * Users and their keys (issue #40, docs/access.md "Users"): the users stored in the array ({@link
 * io.racs.proxy.store.users.UserRecords}), how their secrets are stored ({@link
 * io.racs.proxy.users.StoredSecrets}), the checked changes {@code racs users} makes ({@link
 * io.racs.proxy.users.UserAccounts}), and the directory every request asks ({@link
 * io.racs.proxy.users.UserDirectory}): the configuration's keys as administrators, then the stored
 * users, re-read in the background.
 */
package io.racs.proxy.users;

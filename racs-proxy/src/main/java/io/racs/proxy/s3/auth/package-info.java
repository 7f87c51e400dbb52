/**
 * Request authentication: SigV4 in the {@code Authorization} header and in presigned query
 * parameters, SigV2 in the header and in presigned URLs, against a {@link
 * io.racs.proxy.s3.auth.CredentialStore} of access keys. {@link
 * io.racs.proxy.s3.auth.S3Authenticator} is the entry point; it returns an {@link
 * io.racs.proxy.s3.auth.Authentication} whose {@link io.racs.proxy.s3.auth.SigningContext} seeds
 * the aws-chunked decoder. Secrets, signing keys and signatures are never logged nor put in
 * exception messages.
 */
package io.racs.proxy.s3.auth;

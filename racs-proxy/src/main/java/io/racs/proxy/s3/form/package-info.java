/**
 * Browser form uploads (POST Object): a streaming {@code multipart/form-data} reader and the POST
 * policy (expiration and conditions) a form must satisfy.
 */
package io.racs.proxy.s3.form;

/** The S3 protocol front end on Netty: the only layer of the proxy that knows HTTP. */
package io.racs.proxy.s3;

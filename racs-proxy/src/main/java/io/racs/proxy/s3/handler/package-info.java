/**
 * The S3 operations: {@link io.racs.proxy.s3.handler.S3Dispatcher} sends each authenticated
 * request, by its operation's family, to one handler (bucket, listing, object, multipart), which
 * checks the request's sub-resources, headers and body, calls the store and answers an {@link
 * io.racs.proxy.s3.handler.S3Response} (XML bytes or an object stream). {@link
 * io.racs.proxy.s3.handler.S3Request} is what a handler sees of a request: route, caller and a body
 * of payload bytes with framing, signatures and checksums already handled.
 *
 * <p>Handlers must not know Netty, connections or the wire (the server package writes the
 * response), and must not know the store at all: they call it through {@code
 * io.racs.proxy.s3.bridge.StoreBridge} and read its answers in the bridge's own S3 view ({@code
 * ObjectVersion}, {@code ObjectListing}, {@code UploadedPart}...), never the store's records,
 * repositories or shards ({@code S3PackagesTest} keeps it so).
 */
package io.racs.proxy.s3.handler;

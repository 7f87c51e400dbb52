/**
 * The S3 operations: {@link io.racs.proxy.s3.handler.S3Dispatcher} sends each authenticated
 * request, by its operation's family, to one handler (bucket, listing, object, multipart), which
 * checks the request's sub-resources, headers and body, calls the store and answers an {@link
 * io.racs.proxy.s3.handler.S3Response} (XML bytes or an object stream). {@link
 * io.racs.proxy.s3.handler.S3Request} is what a handler sees of a request: route, caller and a body
 * of payload bytes with framing, signatures and checksums already handled.
 *
 * <p>Handlers must not know Netty, connections or the wire (the server package writes the
 * response), and reach the store only through {@code io.racs.proxy.s3.bridge.StoreBridge}: never
 * the erasure store, repositories or shards. They still take some of the store's records as their
 * data (listing and bucket results, version and part records); a view of the S3 layer's own is to
 * replace them.
 */
package io.racs.proxy.s3.handler;

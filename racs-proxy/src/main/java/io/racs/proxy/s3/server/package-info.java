/**
 * The S3 front end's HTTP server on Netty: {@link io.racs.proxy.s3.server.S3Server} (listening,
 * optional TLS, header and idle limits, and a graceful drain on close), one connection handler per
 * client that reads a request head on the event loop, checks its route and signature there
 * (answering {@code 100 Continue} only after both pass), runs the handler on a virtual thread while
 * the body streams in with backpressure, writes the response no faster than the socket drains, and
 * keeps one request at a time per keep-alive connection; the request body that decodes aws-chunked
 * framing and verifies checksums as the handler reads it; and the request metrics ({@link
 * io.racs.proxy.s3.server.ServerMetrics}, Prometheus client library instruments that the admin
 * server's registry scrapes). The event loops run on the configured {@link
 * io.racs.proxy.s3.server.Transport} (native epoll by default where it loads, io_uring on request,
 * NIO as the fallback), one per core beside the store's virtual threads ({@code EventLoops}).
 *
 * <p>It is the only place that owns channels and the event loop. It must not know what an operation
 * does (the handlers decide, through the dispatcher) nor the store behind them ({@code
 * S3PackagesTest} keeps it so). It meets the bridge twice: whatever a handler throws becomes an S3
 * error through {@code StoreErrors.translate}, the one translator, and an object body that is a
 * {@code ChunkedStream} is written chunk by chunk, without a copy.
 */
package io.racs.proxy.s3.server;

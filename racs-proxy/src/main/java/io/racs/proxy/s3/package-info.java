/**
 * The S3 protocol front end on Netty: the only layer of the proxy that knows HTTP.
 *
 * <p>Its protocol units are pure and server-independent, one concern per package, dependencies
 * pointing one way (checked by {@code S3PackagesTest}):
 *
 * <ul>
 *   <li>{@code error}: the error-code enum and the one exception;
 *   <li>{@code http}: the request head view (raw path and query, headers) and percent-encoding;
 *   <li>{@code auth}: SigV4 and SigV2, header and presigned, against a credential store;
 *   <li>{@code chunked}: push-style body decoders (aws-chunked in all modes, SHA-256 bodies);
 *   <li>{@code checksum}: CRC32, CRC32C, CRC64NVME, SHA1, SHA256, Content-MD5, multipart forms;
 *   <li>{@code xml}: the error body, response documents, secure request parsers;
 *   <li>{@code route}: operation, bucket and key of a request;
 *   <li>{@code range} and {@code precondition}: Range and conditional headers of reads.
 * </ul>
 *
 * <p>Above them sit {@code server} (the Netty connection), {@code handler} (one handler per
 * operation family) and {@code bridge}, the one S3 package that knows the store: handlers call the
 * store through {@code StoreBridge} and read the bridge's own view of it ({@code ObjectVersion},
 * {@code ObjectListing}...), never the store's records.
 *
 * <p>A request flows: {@code RequestHead} → {@code S3Router.route} → {@code
 * S3Authenticator.authenticate} → {@code BodyDecoders.forRequest} feeding a {@code
 * ChecksumVerifier} → handler; any failure → {@code StoreErrors.translate} (the one translator,
 * beside the one crossing into the store) → {@code ErrorXml.render}.
 */
package io.racs.proxy.s3;

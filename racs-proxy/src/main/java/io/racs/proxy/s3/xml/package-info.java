/**
 * S3 XML: the error body ({@link io.racs.proxy.s3.xml.ErrorXml}), the response documents ({@link
 * io.racs.proxy.s3.xml.S3XmlResponses} over the records of {@link io.racs.proxy.s3.xml.XmlModel}),
 * and the request documents, one class per body ({@link
 * io.racs.proxy.s3.xml.CompleteMultipartUploadRequest}, {@link
 * io.racs.proxy.s3.xml.DeleteObjectsRequest}, {@link io.racs.proxy.s3.xml.TaggingRequest}, {@link
 * io.racs.proxy.s3.xml.CorsRequest}...; the lifecycle body is read in its own package), all read
 * through the one secure parser, {@link io.racs.proxy.s3.xml.SafeXmlParser}.
 *
 * <p>Writing uses a small escaping writer ({@link io.racs.proxy.s3.xml.XmlWriter}) rather than a
 * library: the documents are flat, S3's escaping of control characters must be reproduced exactly,
 * and no dependency has to converge. Parsing uses the JDK's StAX with DTDs and external entities
 * disabled and a size cap, rather than Jackson XML: no extra dependency, explicit secure settings,
 * and precise control over the namespace variants and entity-escaped ETags real clients send.
 */
package io.racs.proxy.s3.xml;

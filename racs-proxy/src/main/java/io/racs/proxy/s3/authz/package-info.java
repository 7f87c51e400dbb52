/**
 * The one decision point for access (issue #40): {@link io.racs.proxy.s3.authz.Authorizer} judges
 * every request after authentication and before any handler touches the store, by the action and
 * resource its {@link io.racs.proxy.s3.route.S3Operation} names, the caller's identity policies
 * ({@link io.racs.proxy.s3.policy.Principals}) and the bucket's policy, with the one evaluation
 * rule of {@link io.racs.proxy.s3.policy.PolicyEvaluator}. What a handler must still judge item by
 * item (the keys of DeleteObjects, the buckets of ListBuckets, the key of a form upload) it asks of
 * the {@link io.racs.proxy.s3.authz.Access} the decision returned, which judges by the same rule.
 */
package io.racs.proxy.s3.authz;

/**
 * Access policies in AWS's JSON policy language (issue #40): parsing and validation ({@link
 * io.racs.proxy.s3.policy.PolicyParser}), the actions RACS serves ({@link
 * io.racs.proxy.s3.policy.PolicyActions}), conditions ({@link io.racs.proxy.s3.policy.Conditions})
 * and the one evaluation rule ({@link io.racs.proxy.s3.policy.PolicyEvaluator}): an explicit Deny
 * wins, otherwise an Allow is needed.
 *
 * <p>What a policy names that RACS cannot judge (an unknown action, condition key or operator, a
 * set operator such as {@code ForAnyValue:}) is refused when the policy is parsed, never ignored
 * when a request is judged: a statement the evaluator could not read would otherwise allow or deny
 * something its author did not mean.
 */
package io.racs.proxy.s3.policy;

/**
 * Reshape (docs/reshape.md): changing an array's geometry and repositories while it serves;
 * maintenance beside heal, in one tier with it. So far the plan alone: what moving every version
 * into a target layout costs each repository ({@code MovePlan}); the array record, the mover and
 * its checkpoint come next.
 */
package io.racs.proxy.store.reshape;

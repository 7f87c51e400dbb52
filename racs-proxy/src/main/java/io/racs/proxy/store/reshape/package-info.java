/**
 * Reshape (docs/reshape.md): changing an array's geometry and repositories while it serves;
 * maintenance beside heal, in one tier with it. What moving every version into a target layout
 * costs each repository ({@code MovePlan}), the array record ({@code ArrayRecords}) and the check
 * every opening of the array makes against it ({@code RecordedLayout}); the mover and its
 * checkpoint come next.
 */
package io.racs.proxy.store.reshape;

/**
 * The concurrent table scheduler: {@link io.jstark.scheduler.ConcurrentExecutor} runs each
 * pass of the prover's per-table tasks on k driver threads, heaviest first, under a
 * {@link io.jstark.scheduler.MemoryGate}; {@link io.jstark.scheduler.SchedulerOptions} holds k and the gate's
 * budget as the prover derived them (the user's settings are {@code io.jstark.RunSettings}).
 */
package io.jstark.scheduler;

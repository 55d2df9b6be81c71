/**
 * jstark's instrumentation: what the proving layers record. Every layer may depend on it; it depends on nothing
 * of jstark and on no library. What is made of a recording (the timing report, the analyses, the JSON,
 * Chrome-trace and HTML exports) lives in {@code jstark-profile}, which only the tools on top use.
 *
 * <ul>
 *   <li>{@link io.jstark.instrument.Spans} opens spans; off by default (one volatile read, a shared no-op
 *       span, no allocation inside).</li>
 *   <li>{@link io.jstark.instrument.SpanRecorder} keeps one run's {@link io.jstark.instrument.SpanRecord}s:
 *       parent (same thread or explicit, cross-thread), thread, wall times relative to its origin, the opening
 *       thread's CPU time, the process's CPU time on phases, fields; and hands out the run as a
 *       {@link io.jstark.instrument.Timeline}.</li>
 *   <li>{@link io.jstark.instrument.Spans#phases} begins the phases of a run: one after the other on the calling
 *       thread, sharing their clock readings, with the instruments' own work between them recorded as
 *       {@value io.jstark.instrument.SpanLabels#INSTRUMENTATION} spans ({@link io.jstark.instrument.Phases}); the
 *       {@link io.jstark.instrument.MemorySampler} samples memory at their boundaries;
 *       {@link io.jstark.instrument.SpanLabels} names the labels readers rely on.</li>
 *   <li>Every span is a JFR event {@code io.jstark.Span} while a recording enables it; a
 *       {@link io.jstark.instrument.CaptureRequest} ({@code JSTARK_CAPTURE_SPAN}) records a JFR file around
 *       the first phase with one label. Both need an active recorder: with recording off, spans
 *       do nothing at all.</li>
 * </ul>
 *
 * <p>Process CPU time: a phase's CPU is the process's CPU between the phase's boundaries (read just inside its wall
 * readings, see {@code ProcessCpuClock} for the clock), not the sum of the CPU times of the spans' threads, which would
 * miss un-instrumented threads, the gaps between spans, GC and JIT.
 */
package io.jstark.instrument;

/**
 * What is made of a recorded timeline ({@link io.jstark.instrument.Timeline}): the timeline file
 * ({@link io.jstark.profile.TimelineJson}, JSON Lines) and Chrome trace events
 * ({@link io.jstark.profile.ChromeTraceWriter}, for Perfetto); the analyses in
 * {@link io.jstark.profile.analysis}; the timing report and the HTML timeline in {@link io.jstark.profile.report}.
 * Only the tools on top (the CLI) depend on this module, so the proving layers carry neither these classes nor
 * Jackson.
 */
package io.jstark.profile;

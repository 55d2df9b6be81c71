package io.jstark.instrument;

import java.util.Map;

/**
 * What a timeline file says about its run besides the spans.
 *
 * @param formatVersion       version of the file format ({@link Timeline#FORMAT_VERSION} when written)
 * @param originEpochMillis   wall-clock time at which span times are 0
 * @param availableProcessors cores the JVM saw: the denominator of utilisation (cpu / (wall x cores))
 * @param processCpuClock     which clock sampled process CPU time, which states its resolution
 * @param metadata            what the caller attached: options, command line... (values normalized like fields)
 */
public record TimelineHeader(
        int formatVersion,
        long originEpochMillis,
        int availableProcessors,
        String processCpuClock,
        Map<String, Object> metadata) {

    public TimelineHeader {
        metadata = FieldValues.normalizeMetadata(metadata);
    }
}

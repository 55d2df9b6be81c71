package io.jstark.profile;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.Timeline;
import io.jstark.instrument.TimelineHeader;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes a timeline as Chrome trace events (the JSON object form), which Perfetto (ui.perfetto.dev) and
 * chrome://tracing open: one complete event ({@code "ph":"X"}) per span with {@code ts} and {@code dur} in
 * microseconds (nanosecond digits kept as decimals), {@code tid} = the span's thread id and {@code args} =
 * its fields plus {@value #SPAN_ID_ARG} and {@value #PARENT_ID_ARG} (cross-thread parents are not drawn, but
 * are findable by id); thread names and an order (caller thread first, then by first span) as metadata
 * events ({@code "ph":"M"}); the timeline header under {@code otherData}.
 */
public final class ChromeTraceWriter {
    public static final String SPAN_ID_ARG = "jstark.spanId";
    public static final String PARENT_ID_ARG = "jstark.parentId";
    private static final int PID = 1;
    private static final JsonFactory JSON =
            JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();

    private ChromeTraceWriter() {}

    public static void write(Timeline timeline, Path file) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file))) {
            write(timeline, out);
        }
    }

    /** Writes the trace to {@code out}, leaving it open. */
    public static void write(Timeline timeline, OutputStream out) throws IOException {
        try (JsonGenerator gen = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            gen.writeStartObject();
            gen.writeStringField("displayTimeUnit", "ms");
            writeOtherData(gen, timeline.header());
            gen.writeArrayFieldStart("traceEvents");
            writeMetadataEvent(gen, "process_name", 0, "name", "jstark");
            int sortIndex = 0;
            for (Map.Entry<Long, String> thread : threadsInOrder(timeline).entrySet()) {
                writeMetadataEvent(gen, "thread_name", thread.getKey(), "name", thread.getValue());
                writeMetadataEvent(gen, "thread_sort_index", thread.getKey(), "sort_index", (long) sortIndex++);
            }
            for (SpanRecord span : timeline.spans()) {
                writeCompleteEvent(gen, span);
            }
            gen.writeEndArray();
            gen.writeEndObject();
            gen.writeRaw('\n');
        }
    }

    private static void writeOtherData(JsonGenerator gen, TimelineHeader header) throws IOException {
        gen.writeObjectFieldStart("otherData");
        gen.writeStringField("format", TimelineJson.FORMAT);
        gen.writeNumberField("version", header.formatVersion());
        gen.writeNumberField("originEpochMillis", header.originEpochMillis());
        gen.writeNumberField("availableProcessors", header.availableProcessors());
        gen.writeStringField("processCpuClock", header.processCpuClock());
        gen.writeFieldName("metadata");
        JsonValues.writeObject(gen, header.metadata());
        gen.writeEndObject();
    }

    /** Thread id to name, the caller thread (of the first root span) first, then by first span start. */
    private static Map<Long, String> threadsInOrder(Timeline timeline) {
        Map<Long, String> threads = new LinkedHashMap<>();
        timeline.spans().stream()
                .filter(SpanRecord::isRoot)
                .findFirst()
                .ifPresent(root -> threads.put(root.threadId(), root.thread()));
        timeline.spans().stream()
                .sorted(java.util.Comparator.comparingLong(SpanRecord::startNanos))
                .forEach(span -> threads.putIfAbsent(span.threadId(), span.thread()));
        return threads;
    }

    private static void writeMetadataEvent(JsonGenerator gen, String name, long tid, String argName, Object value)
            throws IOException {
        gen.writeStartObject();
        gen.writeStringField("name", name);
        gen.writeStringField("ph", "M");
        gen.writeNumberField("pid", PID);
        gen.writeNumberField("tid", tid);
        gen.writeObjectFieldStart("args");
        gen.writeFieldName(argName);
        JsonValues.write(gen, value);
        gen.writeEndObject();
        gen.writeEndObject();
    }

    private static void writeCompleteEvent(JsonGenerator gen, SpanRecord span) throws IOException {
        gen.writeStartObject();
        gen.writeStringField("name", span.label());
        gen.writeStringField("cat", "jstark");
        gen.writeStringField("ph", "X");
        gen.writeNumberField("pid", PID);
        gen.writeNumberField("tid", span.threadId());
        gen.writeFieldName("ts");
        gen.writeNumber(micros(span.startNanos()));
        gen.writeFieldName("dur");
        gen.writeNumber(micros(span.durationNanos()));
        gen.writeObjectFieldStart("args");
        gen.writeNumberField(SPAN_ID_ARG, span.id());
        gen.writeNumberField(PARENT_ID_ARG, span.parentId());
        if (span.cpuNanos() >= 0) {
            gen.writeFieldName("thread cpu us");
            gen.writeNumber(micros(span.cpuNanos()));
        }
        for (Map.Entry<String, Object> field : span.fields().entrySet()) {
            String key = field.getKey();
            if (!key.equals(SPAN_ID_ARG) && !key.equals(PARENT_ID_ARG) && !key.equals("thread cpu us")) {
                gen.writeFieldName(key);
                JsonValues.write(gen, field.getValue());
            }
        }
        gen.writeEndObject();
        gen.writeEndObject();
    }

    /** Nanoseconds as a decimal number of microseconds, exact (no binary floating point, no exponent). */
    static String micros(long nanos) {
        String sign = nanos < 0 ? "-" : "";
        long abs = Math.abs(nanos);
        long fraction = abs % 1000;
        return sign + abs / 1000 + "." + (fraction < 10 ? "00" : fraction < 100 ? "0" : "") + fraction;
    }
}

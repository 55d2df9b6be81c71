package io.jstark.profile;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.jstark.instrument.ProcessCpuClock;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.Timeline;
import io.jstark.instrument.TimelineHeader;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The timeline file: JSON Lines, a header object on the first line and then one object per span, so that a
 * file can be read span by span, grepped, or fed to {@code jq}.
 *
 * <pre>
 * {"format":"jstark-timeline","version":1,"originEpochMillis":...,"availableProcessors":16,
 *  "processCpuClock":"...","metadata":{"command":[...],"options":{...}}}
 * {"id":1,"parentId":0,"label":"prove","thread":"main","threadId":1,"startNs":0,"endNs":...,
 *  "cpuStartNs":...,"cpuEndNs":...,"cpuNs":...,"processCpuStartNs":...,"processCpuEndNs":...,"fields":{}}
 * </pre>
 *
 * {@code cpuNs} is derived (the opening thread's CPU inside the span, -1 when unknown) for readers of the raw
 * file and is ignored on reading. Unknown keys are skipped, so later minor additions stay readable.
 */
public final class TimelineJson {
    public static final String FORMAT = "jstark-timeline";

    private static final JsonFactory JSON = new JsonFactoryBuilder()
            .rootValueSeparator("\n")
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
            .build();

    private TimelineJson() {}

    public static void write(Timeline timeline, Path file) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file))) {
            write(timeline, out);
        }
    }

    /** Writes the timeline to {@code out}, leaving it open. */
    public static void write(Timeline timeline, OutputStream out) throws IOException {
        try (JsonGenerator gen = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            writeHeader(gen, timeline.header());
            for (SpanRecord span : timeline.spans()) {
                writeSpan(gen, span);
            }
            gen.writeRaw('\n');
        }
    }

    public static Timeline read(Path file) throws IOException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            return read(in, file.toString());
        }
    }

    /** Reads a timeline from {@code in}; {@code source} names it in error messages. */
    public static Timeline read(InputStream in, String source) throws IOException {
        try (JsonParser parser = JSON.createParser(in)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new TimelineFormatException(source, 1, "empty or not a jstark timeline (no header object)");
            }
            TimelineHeader header = readHeader(parser, source);
            List<SpanRecord> spans = new ArrayList<>();
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (token != JsonToken.START_OBJECT) {
                    throw new TimelineFormatException(source, line(parser), "expected a span object, found " + token);
                }
                spans.add(readSpan(parser, source));
            }
            return new Timeline(header, spans);
        } catch (JsonParseException e) {
            throw new TimelineFormatException(
                    source,
                    e.getLocation() == null ? 0 : e.getLocation().getLineNr(),
                    "malformed JSON: " + e.getOriginalMessage());
        }
    }

    private static void writeHeader(JsonGenerator gen, TimelineHeader header) throws IOException {
        gen.writeStartObject();
        gen.writeStringField("format", FORMAT);
        gen.writeNumberField("version", header.formatVersion());
        gen.writeNumberField("originEpochMillis", header.originEpochMillis());
        gen.writeNumberField("availableProcessors", header.availableProcessors());
        gen.writeStringField("processCpuClock", header.processCpuClock());
        gen.writeFieldName("metadata");
        JsonValues.writeObject(gen, header.metadata());
        gen.writeEndObject();
    }

    private static void writeSpan(JsonGenerator gen, SpanRecord span) throws IOException {
        gen.writeStartObject();
        gen.writeNumberField("id", span.id());
        gen.writeNumberField("parentId", span.parentId());
        gen.writeStringField("label", span.label());
        gen.writeStringField("thread", span.thread());
        gen.writeNumberField("threadId", span.threadId());
        gen.writeNumberField("startNs", span.startNanos());
        gen.writeNumberField("endNs", span.endNanos());
        gen.writeNumberField("cpuStartNs", span.cpuStartNanos());
        gen.writeNumberField("cpuEndNs", span.cpuEndNanos());
        gen.writeNumberField("cpuNs", span.cpuNanos());
        gen.writeNumberField("processCpuStartNs", span.processCpuStartNanos());
        gen.writeNumberField("processCpuEndNs", span.processCpuEndNanos());
        gen.writeFieldName("fields");
        JsonValues.writeObject(gen, span.fields());
        gen.writeEndObject();
    }

    private static TimelineHeader readHeader(JsonParser parser, String source) throws IOException {
        long line = line(parser);
        Map<String, Object> header = JsonValues.readObject(parser);
        if (!FORMAT.equals(header.get("format"))) {
            throw new TimelineFormatException(
                    source,
                    line,
                    "not a jstark timeline (header format is " + header.get("format") + ", expected " + FORMAT + ")");
        }
        long version = requireLong(header, "version", source, line);
        if (version > Timeline.FORMAT_VERSION || version < 1) {
            throw new TimelineFormatException(
                    source,
                    line,
                    "timeline format version " + version + " is not supported (this jstark reads up to "
                            + Timeline.FORMAT_VERSION + ")");
        }
        Object metadata = header.getOrDefault("metadata", Map.of());
        if (!(metadata instanceof Map<?, ?>)) {
            throw new TimelineFormatException(source, line, "header metadata is not an object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> metadataMap = (Map<String, Object>) metadata;
        Object clock = header.get("processCpuClock");
        return new TimelineHeader(
                (int) version,
                requireLong(header, "originEpochMillis", source, line),
                (int) requireLong(header, "availableProcessors", source, line),
                clock == null ? ProcessCpuClock.UNAVAILABLE : clock.toString(),
                metadataMap);
    }

    private static long requireLong(Map<String, Object> object, String key, String source, long line)
            throws TimelineFormatException {
        if (object.get(key) instanceof Long value) {
            return value;
        }
        throw new TimelineFormatException(source, line, "'" + key + "' is missing or not an integer");
    }

    private static SpanRecord readSpan(JsonParser parser, String source) throws IOException {
        long line = line(parser);
        long id = -1;
        long parentId = 0;
        String label = null;
        String thread = null;
        long threadId = -1;
        long start = -1;
        long end = -1;
        long cpuStart = -1;
        long cpuEnd = -1;
        long processCpuStart = -1;
        long processCpuEnd = -1;
        Map<String, Object> fields = Map.of();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (key) {
                case "id" -> id = longValue(parser, key, source);
                case "parentId" -> parentId = longValue(parser, key, source);
                case "label" -> label = textValue(parser, key, source);
                case "thread" -> thread = textValue(parser, key, source);
                case "threadId" -> threadId = longValue(parser, key, source);
                case "startNs" -> start = longValue(parser, key, source);
                case "endNs" -> end = longValue(parser, key, source);
                case "cpuStartNs" -> cpuStart = longValue(parser, key, source);
                case "cpuEndNs" -> cpuEnd = longValue(parser, key, source);
                case "processCpuStartNs" -> processCpuStart = longValue(parser, key, source);
                case "processCpuEndNs" -> processCpuEnd = longValue(parser, key, source);
                case "fields" -> {
                    if (value != JsonToken.START_OBJECT) {
                        throw new TimelineFormatException(source, line(parser), "span 'fields' is not an object");
                    }
                    fields = JsonValues.readObject(parser);
                }
                default -> parser.skipChildren();
            }
        }
        if (id <= 0 || label == null || thread == null || start < 0 || end < start) {
            throw new TimelineFormatException(
                    source,
                    line,
                    "span record needs id > 0, label, thread and"
                            + " 0 <= startNs <= endNs (id " + id + ", label " + label + ", start " + start + ", end "
                            + end
                            + ")");
        }
        return new SpanRecord(
                id,
                parentId,
                label,
                thread,
                threadId,
                start,
                end,
                cpuStart,
                cpuEnd,
                processCpuStart,
                processCpuEnd,
                fields);
    }

    private static long longValue(JsonParser parser, String key, String source) throws IOException {
        if (parser.currentToken() != JsonToken.VALUE_NUMBER_INT) {
            throw new TimelineFormatException(source, line(parser), "'" + key + "' is not an integer");
        }
        return parser.getLongValue();
    }

    private static String textValue(JsonParser parser, String key, String source) throws IOException {
        if (parser.currentToken() != JsonToken.VALUE_STRING) {
            throw new TimelineFormatException(source, line(parser), "'" + key + "' is not a string");
        }
        return parser.getText();
    }

    private static long line(JsonParser parser) {
        return parser.currentTokenLocation().getLineNr();
    }
}

package io.jstark.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.instrument.MemorySampler;
import io.jstark.instrument.Phases;
import io.jstark.instrument.Span;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Spans;
import io.jstark.instrument.Timeline;
import io.jstark.instrument.TimelineHeader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimelineJsonTest {

    @Test
    void memoryFieldsSurviveTheTimelineRoundTrip(@TempDir Path dir) throws Exception {
        SpanRecorder recorder = new SpanRecorder(null, MemorySampler.withOffHeap(() -> 123_456_789_012L));
        Spans.start(recorder);
        try (Phases prove = Spans.phases("prove")) {
            prove.next("only");
        } finally {
            Spans.stop(recorder);
        }
        Path file = dir.resolve("run.json");
        TimelineJson.write(recorder.timeline(Map.of()), file);
        assertThat(TimelineJson.read(file).spans().getFirst().fields())
                .containsEntry(MemorySampler.OFF_HEAP_CLOSE, 123_456_789_012L);
    }

    private static Timeline roundTrip(Timeline timeline) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TimelineJson.write(timeline, out);
        return TimelineJson.read(new ByteArrayInputStream(out.toByteArray()), "memory");
    }

    @Test
    void recordedTimelineSurvivesAFileRoundTrip(@TempDir Path dir) throws Exception {
        SpanRecorder recorder = new SpanRecorder(null);
        Spans.start(recorder);
        try (Span root = Spans.open("prove", "rows", 1 << 20, "ratio", 0.5f, "hash", "sha256", "zk", false)) {
            Thread driver = new Thread(() -> {
                try (Span t = Spans.openChild(
                        root,
                        "round1_table",
                        "table",
                        "cpu \"main\" ✓",
                        "big",
                        new java.math.BigInteger("123456789012345678901234567890"))) {
                    t.field("nan", Double.NaN).field("null", null).field("path", Path.of("a", "b"));
                }
            });
            driver.start();
            driver.join();
        } finally {
            Spans.stop(recorder);
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("command", new String[] {"prove", "--blowup", "8"});
        metadata.put("options", Map.of("blowup", 8, "queries", 30));
        metadata.put("version", "0.1.0");
        Timeline timeline = recorder.timeline(metadata);
        Path file = dir.resolve("run.jsonl");
        TimelineJson.write(timeline, file);
        Timeline read = TimelineJson.read(file);
        assertThat(read).isEqualTo(timeline);
        assertThat(read.header().metadata().get("command")).isEqualTo(List.of("prove", "--blowup", "8"));
        assertThat(read.spans()).hasSize(2);
        SpanRecord table = read.spans().get(1);
        assertThat(table.fields())
                .containsEntry("nan", "NaN")
                .containsEntry("null", null)
                .containsEntry("big", "123456789012345678901234567890");
        // JSON Lines: a header line and one line per span
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0))
                .startsWith("{\"format\":\"jstark-timeline\",\"version\":" + Timeline.FORMAT_VERSION + ",");
        assertThat(lines.get(1)).contains("\"label\":\"prove\"");
    }

    @Provide
    Arbitrary<List<SpanRecord>> spans() {
        return span().list().ofMaxSize(8);
    }

    private static Arbitrary<SpanRecord> span() {
        Arbitrary<Object> fieldValue = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(12).map(s -> (Object) s),
                Arbitraries.longs().map(l -> (Object) l),
                Arbitraries.doubles().map(d -> (Object) d),
                Arbitraries.of(true, false).map(b -> (Object) b));
        Arbitrary<Map<String, Object>> fields = Arbitraries.maps(
                        Arbitraries.strings().ofMaxLength(6), fieldValue)
                .ofMaxSize(4);
        return Combinators.combine(
                        Arbitraries.longs().between(1, Long.MAX_VALUE),
                        Arbitraries.longs().between(0, Long.MAX_VALUE),
                        Arbitraries.strings().ofMinLength(1).ofMaxLength(20),
                        Arbitraries.longs().between(0, 1L << 50),
                        Arbitraries.longs().between(0, 1L << 40),
                        Arbitraries.longs().between(-1, 1L << 50),
                        fields)
                .as((id, parent, label, start, length, cpu, f) -> new SpanRecord(
                        id,
                        parent,
                        label,
                        "t-" + label,
                        id % 97,
                        start,
                        start + length,
                        cpu,
                        cpu < 0 ? -1 : cpu + length / 2,
                        cpu,
                        cpu < 0 ? -1 : cpu + length,
                        f));
    }

    @Property(tries = 200)
    void anyTimelineRoundTrips(@ForAll("spans") List<SpanRecord> spans, @ForAll long origin) throws IOException {
        Timeline timeline = new Timeline(
                new TimelineHeader(Timeline.FORMAT_VERSION, origin, 4, "test clock", Map.of("seed", origin)),
                new ArrayList<>(spans));
        assertThat(roundTrip(timeline)).isEqualTo(timeline);
    }

    private static Timeline read(String text) throws IOException {
        return TimelineJson.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "bad.jsonl");
    }

    @Test
    void rejectsWhatIsNotATimeline() {
        assertThatThrownBy(() -> read(""))
                .isInstanceOf(TimelineFormatException.class)
                .hasMessageContaining("bad.jsonl");
        assertThatThrownBy(() -> read("{\"format\":\"other\",\"version\":1}"))
                .isInstanceOf(TimelineFormatException.class)
                .hasMessageContaining("not a jstark timeline");
        assertThatThrownBy(() -> read("{\"format\":\"jstark-timeline\",\"version\":99,\"originEpochMillis\":0,"
                        + "\"availableProcessors\":1}"))
                .isInstanceOf(TimelineFormatException.class)
                .hasMessageContaining("version 99");
        String header = "{\"format\":\"jstark-timeline\",\"version\":1,\"originEpochMillis\":0,"
                + "\"availableProcessors\":1}\n";
        assertThatThrownBy(() ->
                        read(header + "{\"id\":1,\"label\":\"x\",\"thread\":\"t\",\"startNs\":5," + "\"endNs\":4}"))
                .isInstanceOf(TimelineFormatException.class)
                .hasMessageContaining("bad.jsonl:2");
        assertThatThrownBy(() -> read(header + "{\"id\":\"one\"}"))
                .isInstanceOf(TimelineFormatException.class)
                .hasMessageContaining("'id' is not an integer");
        assertThatThrownBy(() -> read(header + "{\"id\":1,"))
                .isInstanceOf(TimelineFormatException.class)
                .hasMessageContaining("malformed JSON");
    }

    @Test
    void unknownKeysAreSkipped() throws IOException {
        Timeline timeline = read("{\"format\":\"jstark-timeline\",\"version\":1,\"originEpochMillis\":7,"
                + "\"availableProcessors\":2,\"future\":{\"a\":[1,2]}}\n"
                + "{\"id\":3,\"label\":\"x\",\"thread\":\"t\",\"threadId\":9,\"startNs\":1,\"endNs\":4,"
                + "\"extra\":[{\"b\":1}],\"cpuNs\":12}\n");
        assertThat(timeline.header().originEpochMillis()).isEqualTo(7);
        assertThat(timeline.spans()).containsExactly(new SpanRecord(3, 0, "x", "t", 9, 1, 4, -1, -1, Map.of()));
    }
}

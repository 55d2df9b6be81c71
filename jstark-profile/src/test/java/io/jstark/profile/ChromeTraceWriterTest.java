package io.jstark.profile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.Timeline;
import io.jstark.instrument.TimelineHeader;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChromeTraceWriterTest {

    @Test
    void writesCompleteEventsInMicrosecondsWithThreadNames() throws Exception {
        List<SpanRecord> spans = List.of(
                new SpanRecord(1, 0, "prove", "main", 1, 0, 5_000_123, 10, 20, Map.of("rows", 8L)),
                new SpanRecord(2, 1, "round1", "main", 1, 1_000, 2_001_000, -1, -1, Map.of()),
                new SpanRecord(
                        3,
                        2,
                        "round1_table",
                        "driver-1",
                        42,
                        1_500,
                        1_999_999,
                        0,
                        1_000_000,
                        Map.of("table", "cpu", "jstark.spanId", "clash")));
        Timeline timeline = new Timeline(new TimelineHeader(1, 1234, 8, "clock", Map.of("cmd", "prove")), spans);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChromeTraceWriter.write(timeline, out);

        JsonNode root = new ObjectMapper().readTree(out.toByteArray());
        assertThat(root.get("otherData").get("metadata").get("cmd").asText()).isEqualTo("prove");
        List<JsonNode> complete = new ArrayList<>();
        List<JsonNode> threadNames = new ArrayList<>();
        for (JsonNode event : root.get("traceEvents")) {
            assertThat(event.get("pid").isIntegralNumber()).isTrue();
            assertThat(event.get("tid").isIntegralNumber()).isTrue();
            switch (event.get("ph").asText()) {
                case "X" -> complete.add(event);
                case "M" -> {
                    if (event.get("name").asText().equals("thread_name")) {
                        threadNames.add(event);
                    }
                }
                default -> throw new AssertionError("unexpected event " + event);
            }
        }
        assertThat(complete).hasSize(3);
        assertThat(threadNames)
                .extracting(e ->
                        e.get("tid").asLong() + "=" + e.get("args").get("name").asText())
                .containsExactly("1=main", "42=driver-1");
        for (int i = 0; i < spans.size(); i++) {
            SpanRecord span = spans.get(i);
            JsonNode event = complete.get(i);
            assertThat(event.get("name").asText()).isEqualTo(span.label());
            assertThat(event.get("tid").asLong()).isEqualTo(span.threadId());
            assertThat(event.get("ts").decimalValue())
                    .isEqualByComparingTo(BigDecimal.valueOf(span.startNanos()).movePointLeft(3));
            assertThat(event.get("dur").decimalValue())
                    .isEqualByComparingTo(
                            BigDecimal.valueOf(span.durationNanos()).movePointLeft(3));
            assertThat(event.get("args").get(ChromeTraceWriter.SPAN_ID_ARG).asLong())
                    .isEqualTo(span.id());
            assertThat(event.get("args").get(ChromeTraceWriter.PARENT_ID_ARG).asLong())
                    .isEqualTo(span.parentId());
        }
        assertThat(complete.get(0).get("args").get("rows").asLong()).isEqualTo(8);
        assertThat(complete.get(2).get("args").get("table").asText()).isEqualTo("cpu");
        assertThat(complete.get(2).get("args").get("thread cpu us").decimalValue())
                .isEqualByComparingTo("1000.000");
    }

    @Test
    void microsKeepsEveryNanosecondDigit() {
        assertThat(ChromeTraceWriter.micros(0)).isEqualTo("0.000");
        assertThat(ChromeTraceWriter.micros(7)).isEqualTo("0.007");
        assertThat(ChromeTraceWriter.micros(1_234_567_890_123L)).isEqualTo("1234567890.123");
        assertThat(ChromeTraceWriter.micros(-1_050)).isEqualTo("-1.050");
    }
}

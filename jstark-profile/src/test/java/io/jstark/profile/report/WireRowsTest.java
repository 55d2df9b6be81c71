package io.jstark.profile.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.instrument.Timeline;
import io.jstark.instrument.TimelineHeader;
import io.jstark.profile.TimelineJson;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WireRowsTest {
    @Test
    void aProofMadeHereHasNoWireSection() {
        assertThat(WireRows.render(List.of())).isEmpty();
    }

    @Test
    void everyPhaseIsARowInCallOrderAndTheTotalAddsCallsAndBytes() {
        String text = WireRows.render(List.of(
                new WireRows.Row("open", 3, 1200, 30, 2_500_000_000L),
                new WireRows.Row("main_tree", 48, 2_000, 27_900_000, 1_160_000_000L),
                new WireRows.Row("heartbeat", 7, 140, 70, 3_000_000L)));
        List<String> lines = text.lines().toList();
        int header = lines.indexOf(
                lines.stream().filter(l -> l.startsWith("phase")).findFirst().orElseThrow());
        assertThat(lines.get(header + 2))
                .startsWith("open")
                .contains(" 3 ")
                .contains(" 1200 ")
                .endsWith("2.500");
        assertThat(lines.get(header + 3))
                .startsWith("main_tree")
                .contains(" 48 ")
                .contains(" 27900000 ")
                .endsWith("1.160");
        assertThat(lines.get(header + 4)).startsWith("heartbeat").endsWith("0.003");
        assertThat(lines.get(header + 5))
                .startsWith("total")
                .contains(" 58 ")
                .contains(" 3340 ")
                .contains(" 27900100 ")
                .endsWith("-");
    }

    @Test
    void theTimingReportEndsWithTheWireSectionOnlyForAProofMadeOnWorkers() {
        List<WireRows.Row> rows = List.of(new WireRows.Row("deep", 3, 393, 9_437_412, 1_012_000_000L));
        String onWorkers =
                TimingReport.builder(SyntheticRun.proof(0)).wire(rows).build().render();
        assertThat(onWorkers).endsWith(WireRows.render(rows));
        assertThat(TimingReport.builder(SyntheticRun.proof(0)).build().render()).doesNotContain("\nWire:");
    }

    @Test
    void theRowsSavedInATimelineAreReadBackAndReportedAsTheyWereGiven() throws IOException {
        List<WireRows.Row> rows = List.of(
                new WireRows.Row("open", 3, 1200, 30, 2_500_000_000L),
                new WireRows.Row("deep", 3, 393, 9_437_412, 1_012_000_000L));
        Timeline saved = savedAndReadBack(Map.of("example", "mix", WireRows.METADATA, WireRows.toMetadata(rows)));

        assertThat(WireRows.fromMetadata(saved.header().metadata())).isEqualTo(rows);
        assertThat(TimingReport.builder(saved).build().render()).endsWith(WireRows.render(rows));
    }

    @Test
    void aTimelineWithoutWireMetadataHasNoRowsAndItsReportNoWireSection() throws IOException {
        Timeline saved = savedAndReadBack(Map.of("example", "mix"));

        assertThat(WireRows.fromMetadata(saved.header().metadata())).isEmpty();
        assertThat(TimingReport.builder(saved).build().render()).doesNotContain("\nWire:");
    }

    private static Timeline savedAndReadBack(Map<String, Object> metadata) throws IOException {
        Timeline timeline = new Timeline(
                new TimelineHeader(Timeline.FORMAT_VERSION, 0, 4, "test clock", metadata), SyntheticRun.proof(0));
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        TimelineJson.write(timeline, file);
        return TimelineJson.read(new ByteArrayInputStream(file.toByteArray()), "saved timeline");
    }
}

package io.jstark.profile.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.Timeline;
import io.jstark.instrument.TimelineHeader;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class TimelineHtmlTest {

    private static Timeline timeline(List<SpanRecord> spans) {
        return new Timeline(
                new TimelineHeader(Timeline.FORMAT_VERSION, 1_700_000_000_000L, 8, "test clock", Map.of()), spans);
    }

    private static Document parse(String html) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<Element> elements(Document doc, String tag, String cssClass) {
        NodeList nodes = doc.getElementsByTagName(tag);
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            Element e = (Element) nodes.item(i);
            if (cssClass == null || cssClass.equals(e.getAttribute("class"))) {
                out.add(e);
            }
        }
        return out;
    }

    @Test
    void phasesAndOperationsShareNoColourAndThePageFitsA1400PixelWindow() throws Exception {
        Document doc = parse(TimelineHtml.render(timeline(SyntheticRun.proof(0)), "jstark prove --example mix"));
        java.util.Set<String> phaseFills = new java.util.HashSet<>();
        for (Element e : elements(doc, "rect", "phase")) {
            phaseFills.add(e.getAttribute("fill"));
        }
        for (Element e : elements(doc, "rect", "table")) {
            phaseFills.add(e.getAttribute("fill"));
        }
        List<Element> operations = elements(doc, "rect", "op");
        assertThat(operations).isNotEmpty();
        assertThat(operations).extracting(e -> e.getAttribute("fill")).doesNotContainAnyElementsOf(phaseFills);
        int svgWidth =
                Integer.parseInt(((Element) doc.getElementsByTagName("svg").item(0)).getAttribute("width"));
        assertThat(svgWidth + 2 * 16)
                .as("the chart and the page's margins at zoom 1")
                .isLessThanOrEqualTo(1400 - 20);
    }

    @Test
    void drawsEveryTableOnItsDriverLaneUnderThePhases() throws Exception {
        List<SpanRecord> spans = SyntheticRun.proof(0);
        String html = TimelineHtml.render(timeline(spans), "jstark prove --example mix");
        Document doc = parse(html); // well-formed: every tag closed, text escaped
        long tables = spans.stream().filter(s -> s.label().endsWith("_table")).count();
        List<Element> tableBars = elements(doc, "rect", "table");
        assertThat(tableBars).hasSize((int) tables);
        // phase rows, one level per row: prove; its phases; prepass's phases; the instrumentation between them grey
        List<Element> phaseBars = elements(doc, "rect", "phase");
        assertThat(phaseBars)
                .extracting(e -> e.getElementsByTagName("title")
                        .item(0)
                        .getTextContent()
                        .lines()
                        .findFirst()
                        .orElseThrow())
                .containsExactly(
                        "prove",
                        "prepass",
                        "instrumentation",
                        "main_commit",
                        "instrumentation",
                        "aux_and_rounds_2_4",
                        "instrumentation",
                        "assemble",
                        "check_statement",
                        "instrumentation",
                        "preprocessed_commit");
        assertThat(phaseBars)
                .filteredOn(e ->
                        e.getElementsByTagName("title").item(0).getTextContent().startsWith("instrumentation"))
                .hasSize(4)
                .allSatisfy(e -> assertThat(e.getAttribute("fill")).isEqualTo("#bdbdbd"));
        // one lane per thread name, by first span: the caller's own operations first, then the drivers
        assertThat(elements(doc, "text", "lane"))
                .extracting(Element::getTextContent)
                .containsExactly(
                        "phases", "phases, level 2", "phases, level 3", "main", "jstark-driver-0", "jstark-driver-1");
        // bars lie inside the chart and say what they are
        for (Element bar : tableBars) {
            double x = Double.parseDouble(bar.getAttribute("x"));
            double width = Double.parseDouble(bar.getAttribute("width"));
            assertThat(x).isBetween(190.0, 1310.0);
            assertThat(x + width).isLessThanOrEqualTo(1310.5);
            assertThat(bar.getElementsByTagName("title").item(0).getTextContent())
                    .contains("_table [")
                    .contains("wall ")
                    .contains("thread ");
        }
        // the longest table, cpu's chain from 30.2 to 99.5 ms of 100: 69.3% of the chart
        Element longest = tableBars.stream()
                .max(java.util.Comparator.comparingDouble(e -> Double.parseDouble(e.getAttribute("width"))))
                .orElseThrow();
        assertThat(Double.parseDouble(longest.getAttribute("width")))
                .isCloseTo(0.693 * 1120, org.assertj.core.api.Assertions.within(0.01));
        // self-contained: nothing to fetch
        assertThat(html)
                .doesNotContain("http")
                .doesNotContain("src=")
                .doesNotContain("href=")
                .contains("<script>");
    }

    @Test
    void escapesWhatItPrintsAndRefusesAnEmptyTimeline() throws Exception {
        List<SpanRecord> spans = List.of(
                new SpanRecord(1, 0, "prove", "main", 1, 0, 1_000, -1, -1, Map.of()),
                new SpanRecord(2, 1, "p", "main", 1, 0, 1_000, -1, -1, Map.of()),
                new SpanRecord(3, 2, "p_table", "d<0>", 2, 0, 900, -1, -1, Map.of("table", "a<b>&\"c\"")));
        String html = TimelineHtml.render(timeline(spans), "t & <t>");
        Document doc = parse(html);
        assertThat(elements(doc, "text", "bar"))
                .extracting(Element::getTextContent)
                .contains("a<b>&\"c\"");
        assertThat(doc.getElementsByTagName("h1").item(0).getTextContent()).isEqualTo("t & <t>");
        assertThatThrownBy(() -> TimelineHtml.render(timeline(List.of()), "x"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void axisStepsAreOneTwoOrFiveTimesAPowerOfTen() {
        assertThat(GanttChart.niceStep(0.7)).isEqualTo(1.0);
        assertThat(GanttChart.niceStep(1.3)).isEqualTo(2.0);
        assertThat(GanttChart.niceStep(3)).isEqualTo(5.0);
        assertThat(GanttChart.niceStep(760)).isEqualTo(1000.0);
    }
}

package io.jstark.profile.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableGroupTest {
    private static Map<String, Long> spanTime(long main, long aux) {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("main_commit", main);
        m.put("aux", aux);
        return m;
    }

    @Test
    void aTableAloneIsNamedByItselfAndTablesOfOneKindAreCountedWithTheirRowRange() {
        TableGroup ram = new TableGroup("ram");
        ram.add("ram_a", 1 << 12, spanTime(5, 7));
        assertThat(ram.label()).isEqualTo("ram_a");
        assertThat(ram.rowsText()).isEqualTo("2^12");
        ram.add("ram_b", 1 << 14, spanTime(1, 2));
        assertThat(ram.label()).isEqualTo("ram x2");
        assertThat(ram.rowsText()).isEqualTo("2^12..2^14");
        assertThat(ram.spanTime("main_commit")).isEqualTo(6L);
        assertThat(ram.spanTime("aux")).isEqualTo(9L);
        assertThat(ram.spanTime("queries")).isNull();
        assertThat(ram.total()).isEqualTo(15L);
    }

    @Test
    void rowsThatAreNoPowerOfTwoPrintAsNumbersAndUnknownRowsAsADash() {
        TableGroup odd = new TableGroup("odd");
        odd.add("odd", 1000, spanTime(1, 1));
        assertThat(odd.rowsText()).isEqualTo("1000");
        TableGroup unknown = new TableGroup("unknown");
        unknown.add("unknown", -1, spanTime(1, 1));
        assertThat(unknown.rowsText()).isEqualTo("-");
    }

    @Test
    void theSmallTablesAreLumpedUnderTheirCount() {
        TableGroup small = new TableGroup(null);
        small.add("tiny", 16, spanTime(1, 0));
        assertThat(small.label()).isEqualTo("(1 other)");
        small.add("wee", 16, spanTime(0, 1));
        assertThat(small.label()).isEqualTo("(2 others)");
        assertThat(small.count()).isEqualTo(2);
    }
}

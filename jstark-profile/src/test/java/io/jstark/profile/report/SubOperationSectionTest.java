package io.jstark.profile.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.instrument.SpanRecord;
import io.jstark.profile.analysis.SpanTree;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SubOperationSectionTest {
    @Test
    void eachNestingFollowsItsParentAndSiblingsKeepTheirFirstStartOrder() {
        Set<List<String>> keys = new LinkedHashSet<>(List.of(
                List.of("main_commit_table"),
                List.of("main_commit_table", "lde"),
                List.of("aux_table"),
                List.of("main_commit_table", "merkle"),
                List.of("aux_table", "fri_commit"),
                List.of("aux_table", "fri_commit", "merkle"),
                List.of("main_commit_table", "lde", "ntt")));
        assertThat(SubOperationSection.depthFirst(keys))
                .containsExactly(
                        List.of("main_commit_table"),
                        List.of("main_commit_table", "lde"),
                        List.of("main_commit_table", "lde", "ntt"),
                        List.of("main_commit_table", "merkle"),
                        List.of("aux_table"),
                        List.of("aux_table", "fri_commit"),
                        List.of("aux_table", "fri_commit", "merkle"));
    }

    @Test
    void theSubOperationsOfTheSyntheticRunAreNestedUnderTheirTableOrPhase() {
        List<SpanRecord> spans = SyntheticRun.proof(0);
        String text = SubOperationSection.render(new RootScope(SpanTree.of(spans), spans.getFirst()));
        assertThat(text)
                .containsSubsequence(
                        "\nprepass/preprocessed_commit ",
                        "\n  lde ",
                        "\n  merkle ",
                        "\nmain_commit_table ",
                        "\n  lde ",
                        "\n  merkle ",
                        "\naux_and_rounds_2_4_table ",
                        "\n  aux_commit ",
                        "\n    lde ");
        assertThat(SubOperationSection.summedSpanTime(spans.subList(0, 2)))
                .isEqualTo(spans.get(0).durationNanos() + spans.get(1).durationNanos());
    }
}

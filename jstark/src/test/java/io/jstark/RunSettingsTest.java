package io.jstark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.RunSettings.Setting;
import io.jstark.instrument.ByteSize;
import io.jstark.scheduler.InvalidSchedulerSettingException;
import io.jstark.storage.InvalidStorageSettingException;
import io.jstark.storage.StorageMode;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RunSettingsTest {
    private static final long MI = 1024 * 1024;

    private static Map<String, String> env(String... keyValues) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            env.put(keyValues[i], keyValues[i + 1]);
        }
        return env;
    }

    @Test
    void defaultsAreBuiltInAndBlankVariablesChangeNothing() {
        RunSettings defaults = RunSettings.defaults();
        assertThat(defaults)
                .isEqualTo(new RunSettings(
                        io.jstark.prover.exec.TableParallelism.DEFAULT, ByteSize.UNLIMITED, StorageMode.AUTO, null, 0));
        assertThat(defaults.hasBudget()).isFalse();
        assertThat(defaults.withEnvironment(Map.of())).isEqualTo(defaults);
        assertThat(defaults.withEnvironment(
                        env("JSTARK_TABLE_PARALLELISM", "  ", "JSTARK_MEMORY_BUDGET", "", "JSTARK_STORAGE", "")))
                .isEqualTo(defaults);
    }

    @Test
    void everySettingHasOneVariableAndOneParser() {
        RunSettings s = RunSettings.defaults()
                .withEnvironment(env(
                        "JSTARK_TABLE_PARALLELISM",
                        " 8 ",
                        "JSTARK_MEMORY_BUDGET",
                        "512M",
                        "JSTARK_STORAGE",
                        " Disk ",
                        "JSTARK_SPILL_DIR",
                        "/var/tmp",
                        "JSTARK_WORKER_THREADS",
                        "3"));
        assertThat(s).isEqualTo(new RunSettings(8, 512 * MI, StorageMode.DISK, Path.of("/var/tmp"), 3));
        // a flag goes through the same parser as its variable, and names itself in errors
        assertThat(s.with(Setting.MEMORY_BUDGET, "unlimited", "--memory-budget").hasBudget())
                .isFalse();
        assertThatThrownBy(() -> s.with(Setting.MEMORY_BUDGET, "0", "--memory-budget"))
                .isInstanceOf(InvalidSchedulerSettingException.class)
                .hasMessageStartingWith("--memory-budget='0' is invalid: ");
        // the storage options the planner gets carry the budget as given
        assertThat(s.storageOptions().memoryBudgetBytes()).isEqualTo(512 * MI);
        assertThat(s.storageOptions().mode()).isEqualTo(StorageMode.DISK);
        assertThat(s.toString()).contains("memory budget 512.0 MiB").doesNotContain("unlimited");
        assertThat(RunSettings.defaults().toString()).contains("memory budget none given");
    }

    @Test
    void theBuilderReadsNoEnvironment() {
        // whatever this process's environment holds, a builder starts from the built-in defaults
        try (JstarkProver prover = Jstark.prover(java.util.List.of()).build()) {
            assertThat(prover.settings()).isEqualTo(RunSettings.defaults());
        }
        try (JstarkProver prover = Jstark.prover(java.util.List.of())
                .settings(RunSettings.defaults().withMemoryBudget(7 * MI))
                .tableParallelism(2)
                .build()) {
            assertThat(prover.settings()).isEqualTo(new RunSettings(2, 7 * MI, StorageMode.AUTO, null, 0));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "abc", "1.5", "99999999999", "two", "4k"})
    void nonsenseParallelismNamesTheVariableAndTheValue(String value) {
        assertThatThrownBy(() -> RunSettings.defaults().withEnvironment(env("JSTARK_TABLE_PARALLELISM", value)))
                .isInstanceOfSatisfying(InvalidSchedulerSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("JSTARK_TABLE_PARALLELISM");
                    assertThat(e.value()).isEqualTo(value);
                })
                .hasMessageStartingWith("JSTARK_TABLE_PARALLELISM='" + value + "' is invalid: ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "0G", "-1", "lots", "12X", "1.5G", "99999999T"})
    void nonsenseBudgetsNameTheVariableAndTheValue(String value) {
        assertThatThrownBy(() -> RunSettings.defaults().withEnvironment(env("JSTARK_MEMORY_BUDGET", value)))
                .isInstanceOfSatisfying(InvalidSchedulerSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("JSTARK_MEMORY_BUDGET");
                    assertThat(e.value()).isEqualTo(value);
                })
                .hasMessageStartingWith("JSTARK_MEMORY_BUDGET='" + value + "' is invalid: ");
    }

    @Test
    void nonsenseStorageAndThreadsAreNamed() {
        assertThatThrownBy(() -> RunSettings.defaults().withEnvironment(env("JSTARK_STORAGE", "ssd")))
                .isInstanceOf(InvalidStorageSettingException.class)
                .hasMessageContaining("JSTARK_STORAGE='ssd'")
                .hasMessageContaining("auto, ram or disk");
        assertThatThrownBy(() -> RunSettings.defaults().withEnvironment(env("JSTARK_WORKER_THREADS", "0")))
                .isInstanceOf(InvalidSchedulerSettingException.class)
                .hasMessageStartingWith("JSTARK_WORKER_THREADS='0' is invalid");
    }
}

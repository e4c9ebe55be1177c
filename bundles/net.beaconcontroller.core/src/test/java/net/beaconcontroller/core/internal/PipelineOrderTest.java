package net.beaconcontroller.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.internal.PipelineOrder.Entry;

/** The pipeline order: constraints hold, the configured order and arrival break ties, cycles are reported. */
class PipelineOrderTest {
    private long seq;
    private final List<String> warnings = new ArrayList<>();

    private Entry<String> e(String name, Set<String> before, Set<String> after) {
        return new Entry<>(name, name, before, after, seq++);
    }

    private Entry<String> e(String name) {
        return e(name, Set.of(), Set.of());
    }

    private List<String> order(List<String> configured, List<Entry<String>> entries) {
        return PipelineOrder.order(entries, configured, warnings::add);
    }

    @Test
    void withoutConstraintsNamedListenersComeFirstInTheConfiguredOrderThenTheRestAsTheyArrived() {
        assertEquals(List.of("b", "a", "x", "y"), order(List.of("b", "a"), List.of(e("x"), e("a"), e("y"), e("b"))));
        assertEquals(List.of("x", "a", "y"), order(List.of(), List.of(e("x"), e("a"), e("y"))));
    }

    @Test
    void beforeAndAfterConstraintsHoldWhateverTheArrivalOrder() {
        // The paper's default pipeline: topology sees LLDP first, the device manager learns before routing decides.
        var routing = e("routing", Set.of(), Set.of("devicemanager"));
        var devices = e("devicemanager", Set.of(), Set.of("topology"));
        var topology = e("topology", Set.of("devicemanager", "routing"), Set.of());
        assertEquals(List.of("topology", "devicemanager", "routing"), order(List.of(), List.of(routing, devices, topology)));
        assertTrue(warnings.isEmpty());
    }

    @Test
    void constraintsWinOverTheConfiguredOrder() {
        assertEquals(List.of("a", "b"), order(List.of("b", "a"), List.of(e("a", Set.of("b"), Set.of()), e("b"))));
    }

    @Test
    void constraintsNamingAbsentListenersAreIgnored() {
        assertEquals(List.of("x", "y"), order(List.of(), List.of(e("x", Set.of("nobody"), Set.of("ghost")), e("y"))));
    }

    @Test
    void aCycleIsReportedAndBrokenByPreferenceEveryoneStillListedOnce() {
        var result = order(List.of(), List.of(e("a", Set.of(), Set.of("b")), e("b", Set.of(), Set.of("a")), e("c")));
        assertEquals(List.of("c", "a", "b"), result);
        assertEquals(1, warnings.size(), warnings::toString);
        assertTrue(warnings.get(0).contains("cycle"), warnings::toString);
    }

    @Test
    void twoListenersWithTheSameNameBothTakePart() {
        assertEquals(List.of("a", "a", "z"), order(List.of(), List.of(e("a"), e("a"), e("z", Set.of(), Set.of("a")))));
    }
}

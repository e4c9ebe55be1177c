package net.beaconcontroller.core.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Orders the listeners of one pipeline: every "before"/"after" constraint a listener declares holds; among the
 * listeners free to go next, those named in {@code controller.callbackOrdering} come first in that order, the others
 * in the order they arrived. Constraints win over the configured order, because they say what an application needs
 * to be correct; a cycle of constraints is reported and broken by the same preference.
 */
final class PipelineOrder {
    /** One listener: its name, whom it must precede and follow, and when it arrived. */
    record Entry<L>(L listener, String name, Set<String> before, Set<String> after, long seq) { }

    private PipelineOrder() {
    }

    static <L> List<L> order(List<Entry<L>> entries, List<String> configured, Consumer<String> warn) {
        int n = entries.size();
        var byName = new HashMap<String, List<Integer>>();
        for (int i = 0; i < n; i++) {
            byName.computeIfAbsent(entries.get(i).name(), k -> new ArrayList<>()).add(i);
        }
        var successors = new ArrayList<List<Integer>>();
        int[] waitingFor = new int[n];
        for (int i = 0; i < n; i++) {
            successors.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            var e = entries.get(i);
            for (String b : e.before()) {
                for (int j : byName.getOrDefault(b, List.of())) {
                    addEdge(i, j, successors, waitingFor);
                }
            }
            for (String a : e.after()) {
                for (int j : byName.getOrDefault(a, List.of())) {
                    addEdge(j, i, successors, waitingFor);
                }
            }
        }
        Map<String, Integer> rank = new HashMap<>();
        for (int i = 0; i < configured.size(); i++) {
            rank.putIfAbsent(configured.get(i), i);
        }
        Comparator<Integer> preference = Comparator
                .<Integer>comparingInt(i -> rank.getOrDefault(entries.get(i).name(), Integer.MAX_VALUE))
                .thenComparingLong(i -> entries.get(i).seq());
        var ready = new PriorityQueue<>(preference);
        var done = new boolean[n];
        for (int i = 0; i < n; i++) {
            if (waitingFor[i] == 0) {
                ready.add(i);
            }
        }
        var result = new ArrayList<L>(n);
        while (result.size() < n) {
            if (ready.isEmpty()) {
                // Only a cycle is left: name it, then release its most preferred member.
                var cycle = new ArrayList<Integer>();
                for (int i = 0; i < n; i++) {
                    if (!done[i]) {
                        cycle.add(i);
                    }
                }
                cycle.sort(preference);
                warn.accept("listeners " + cycle.stream().map(i -> entries.get(i).name()).toList()
                        + " have before/after constraints that form a cycle; ordering them by preference");
                waitingFor[cycle.get(0)] = 0;
                ready.add(cycle.get(0));
            }
            int i = ready.poll();
            if (done[i]) {
                continue;
            }
            done[i] = true;
            result.add(entries.get(i).listener());
            for (int j : successors.get(i)) {
                if (!done[j] && --waitingFor[j] == 0) {
                    ready.add(j);
                }
            }
        }
        return result;
    }

    private static void addEdge(int from, int to, List<List<Integer>> successors, int[] waitingFor) {
        if (from != to && !successors.get(from).contains(to)) {
            successors.get(from).add(to);
            waitingFor[to]++;
        }
    }
}

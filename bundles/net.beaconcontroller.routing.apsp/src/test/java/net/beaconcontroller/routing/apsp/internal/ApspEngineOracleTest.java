package net.beaconcontroller.routing.apsp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import net.beaconcontroller.routing.RouteChanges;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/** The incremental engine against the {@link Oracle}, on random link histories. */
class ApspEngineOracleTest {
    @Provide
    Arbitrary<LinkEvents> histories() {
        return LinkEvents.histories();
    }

    @Property(tries = 500)
    void pathsAndRoutesAreTheOraclesAfterEveryChange(@ForAll("histories") LinkEvents history) {
        var engine = new ApspEngine();
        var links = new HashSet<Link>();
        for (var event : history.events()) {
            apply(engine, event);
            LinkEvents.apply(links, event);
            var oracle = new Oracle(links);
            for (long s : history.dpids()) {
                for (long t : history.dpids()) {
                    assertEquals(oracle.path(s, t), engine.getPath(s, t), () -> "path " + s + " -> " + t + " after " + event);
                    var src = new SwitchPort(s, 7);
                    var dst = new SwitchPort(t, 9);
                    RouteAssertions.assertRoute(engine.getRoute(src, dst), src, dst, links, oracle.distance(s, t));
                }
            }
        }
    }

    @Property(tries = 500)
    void eachChangeReportsExactlyThePairsWhosePathChanged(@ForAll("histories") LinkEvents history) {
        var engine = new ApspEngine();
        var links = new HashSet<Link>();
        var before = new Oracle(links);
        for (var event : history.events()) {
            RouteChanges reported = apply(engine, event);
            LinkEvents.apply(links, event);
            var after = new Oracle(links);
            var expected = new HashSet<List<Long>>();
            for (long s : history.dpids()) {
                for (long t : history.dpids()) {
                    if (!before.path(s, t).equals(after.path(s, t))) {
                        expected.add(List.of(s, t));
                    }
                    assertEquals(expected.contains(List.of(s, t)), reported.contains(s, t));
                }
            }
            var told = new HashSet<List<Long>>();
            reported.forEach((s, t) -> told.add(List.of(s, t)));
            assertEquals(expected, told, () -> "after " + event);
            assertEquals(expected.size(), reported.size());
            before = after;
        }
    }

    /**
     * The guarantee: every route is a function of the set of links up. Built link by link along any history, in a
     * shuffled order, or from scratch, the same links give the same paths.
     */
    @Property(tries = 500)
    void sameLinksGiveSameRoutesWhateverTheOrder(@ForAll("histories") LinkEvents history, @ForAll long seed) {
        var incremental = new ApspEngine();
        history.events().forEach(e -> apply(incremental, e));
        Set<Link> links = history.finalLinks();
        var shuffled = new ArrayList<>(links);
        Collections.shuffle(shuffled, new Random(seed));
        var reordered = new ApspEngine();
        shuffled.forEach(reordered::add);
        var fromScratch = new ApspEngine();
        fromScratch.reset(links);
        for (long s : history.dpids()) {
            for (long t : history.dpids()) {
                assertEquals(fromScratch.getPath(s, t), incremental.getPath(s, t));
                assertEquals(fromScratch.getPath(s, t), reordered.getPath(s, t));
            }
        }
    }

    private static RouteChanges apply(ApspEngine engine, LinkEvents.Event event) {
        return event.up() ? engine.add(event.link()) : engine.remove(event.link());
    }
}

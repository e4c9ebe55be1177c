package net.beaconcontroller.routing.apsp.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

import net.beaconcontroller.topology.Link;

/**
 * Random link histories on up to 60 switches: cables and one-way links come up and go down (a third of the steps),
 * so networks split into islands and join again. Few ports make parallel links and reused ports common. Datapath ids
 * are scattered over all 64 bits so that their order is neither the order switches appear in nor the signed order.
 */
record LinkEvents(int switches, List<Event> events) {
    record Event(boolean up, Link link) {
    }

    private record Step(boolean up, int a, int b, int portA, int portB, boolean cable, int pick) {
    }

    static long dpid(int i) {
        return (i + 1) * 0x9e3779b97f4a7c15L;
    }

    static Arbitrary<LinkEvents> histories() {
        return Arbitraries.integers().between(2, 60).flatMap(n -> {
            var sw = Arbitraries.integers().between(0, n - 1);
            var port = Arbitraries.integers().between(1, 3);
            var step = Combinators.combine(Arbitraries.integers().between(0, 2).map(k -> k > 0), sw, sw, port, port,
                    Arbitraries.integers().between(0, 3).map(k -> k > 0), Arbitraries.integers().greaterOrEqual(0))
                    .as(Step::new);
            return step.list().ofMaxSize(Math.max(8, 2 * n)).map(steps -> new LinkEvents(n, replay(steps)));
        });
    }

    /** The dpids of every switch that may appear. */
    List<Long> dpids() {
        var all = new ArrayList<Long>();
        for (int i = 0; i < switches; i++) {
            all.add(dpid(i));
        }
        return all;
    }

    /** The links up after all events. */
    Set<Link> finalLinks() {
        var links = new HashSet<Link>();
        events.forEach(e -> apply(links, e));
        return links;
    }

    static void apply(Set<Link> links, Event e) {
        if (e.up()) {
            links.add(e.link());
        } else {
            links.remove(e.link());
        }
    }

    private static List<Event> replay(List<Step> steps) {
        var events = new ArrayList<Event>();
        var links = new HashSet<Link>();
        for (Step s : steps) {
            List<Link> touched;
            if (s.up()) {
                var link = Link.of(dpid(s.a()), s.portA(), dpid(s.b()), s.a() == s.b() && s.portA() == s.portB() ? s.portA() % 3 + 1 : s.portB());
                touched = s.cable() ? List.of(link, link.reverse()) : List.of(link);
            } else if (links.isEmpty()) {
                continue;
            } else {
                var known = links.stream().sorted(Comparator.comparing(Link::toString)).toList();
                var link = known.get(s.pick() % known.size());
                touched = s.cable() && links.contains(link.reverse()) ? List.of(link, link.reverse()) : List.of(link);
            }
            for (Link l : touched) {
                var event = new Event(s.up(), l);
                events.add(event);
                apply(links, event);
            }
        }
        return events;
    }
}

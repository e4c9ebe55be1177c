package net.beaconcontroller.topology.internal;

import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.packet.Lldp;
import net.beaconcontroller.packet.PacketParseException;
import net.beaconcontroller.topology.DiscoveryCounters;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;
import net.beaconcontroller.topology.internal.ProbeCodec.Verdict;
import net.beaconcontroller.util.Dpids;

/**
 * Judges a probe that came back, the only way a link is found here: anyone on a host port can send LLDP, so a frame is
 * a link only once it parses, verifies as one of our fresh probes and runs between two ports that are up; whatever it
 * is, it is counted, since the counters are how an operator tells a forged or replayed probe from a lost one. Runs on
 * the I/O thread of the switch the frame arrived at; the counters are read from any thread.
 */
final class ProbeReceiver {
    /** Discovery's log, as before this class was split out of it: operators' log settings name it. */
    private static final Logger log = LoggerFactory.getLogger(LinkDiscovery.class);

    private final TopologyStore store;
    private final ProbeCodec codec;
    private final SharedLinks shared;
    private final Liveness liveness;
    private final Prober prober;
    private final TopologyListeners listeners;
    private final LongSupplier nanoClock;
    private final Clock wallClock;
    private final long maxAgeNanos;
    private final LongAdder accepted = new LongAdder();
    private final Map<Verdict, LongAdder> rejected = Map.of(Verdict.MALFORMED, new LongAdder(), Verdict.FOREIGN,
            new LongAdder(), Verdict.FORGED, new LongAdder(), Verdict.STALE, new LongAdder());
    private final LongAdder unknownPort = new LongAdder();

    /** @param maxAgeNanos the most a probe may be old: the probe interval */
    ProbeReceiver(TopologyStore store, ProbeCodec codec, SharedLinks shared, Liveness liveness, Prober prober,
            TopologyListeners listeners, LongSupplier nanoClock, Clock wallClock, long maxAgeNanos) {
        this.store = store;
        this.codec = codec;
        this.shared = shared;
        this.liveness = liveness;
        this.prober = prober;
        this.listeners = listeners;
        this.nanoClock = nanoClock;
        this.wallClock = wallClock;
        this.maxAgeNanos = maxAgeNanos;
    }

    /**
     * An LLDP or BDDP frame arrived at {@code inPort} of {@code sw}: a link, or a broadcast-domain link, if it is one
     * of our fresh probes.
     */
    void received(IOFSwitch sw, int inPort, Frame frame) {
        Lldp lldp;
        try {
            lldp = ProbeFrames.lldpdu(frame);
            if (lldp == null) {
                ignore(Verdict.MALFORMED, sw, inPort, "not an LLDPDU");
                return;
            }
        } catch (PacketParseException e) {
            ignore(Verdict.MALFORMED, sw, inPort, e.getMessage());
            return;
        }
        long now = nanoClock.getAsLong();
        long probeNow = shared.probeTime();
        var r = codec.verify(lldp, probeNow, maxAgeNanos, shared.skewNanos());
        if (r.verdict() != Verdict.VALID) {
            ignore(r.verdict(), sw, inPort, r.why());
            return;
        }
        if (!Prober.isPhysical(inPort) || !Prober.isPhysical(r.port())
                || (r.dpid() == sw.getId() && r.port() == inPort)) {
            unknownPort(sw, inPort, r);
            return;
        }
        var link = new Link(new SwitchPort(r.dpid(), r.port()), new SwitchPort(sw.getId(), inPort));
        if (ProbeFrames.isBddp(frame)) {
            domainProbeReceived(sw, inPort, link, r, now);
            return;
        }
        // In milliseconds: what the members of a cluster share, so that they all show the same time.
        var firstSeen = wallClock.instant().truncatedTo(ChronoUnit.MILLIS);
        var seen = store.linkSeen(link, now, firstSeen);
        if (seen == TopologyStore.Seen.UNKNOWN_PORT) {
            unknownPort(sw, inPort, r);
            return;
        }
        accepted.increment();
        liveness.cameBack(link, r.sent(), probeNow);
        shared.seen(link, store.view().links().getOrDefault(link, firstSeen));
        if (seen == TopologyStore.Seen.NEW) {
            listeners.deliver();
            // Ask for the other direction now rather than at the next round: the cable becomes usable sooner.
            var back = sw.getPort(inPort);
            if (back != null && !store.view().links().containsKey(link.reverse())) {
                prober.probe(sw, back);
            }
        }
    }

    /**
     * A BDDP probe crossed {@code link}: unmanaged bridges in between, unless an LLDP link ends at either port (then it
     * took the cable). Not shared with the other members of a cluster: each knows the domains at the switches it
     * masters.
     */
    private void domainProbeReceived(IOFSwitch sw, int inPort, Link link, ProbeCodec.Result r, long now) {
        switch (store.domainLinkSeen(link, now)) {
            case NEW -> {
                accepted.increment();
                domainFound(link);
            }
            case REFRESHED -> accepted.increment();
            case UNKNOWN_PORT -> unknownPort(sw, inPort, r);
            case DIRECT -> log.trace("BDDP across the LLDP link at {}: no broadcast domain", link);
            case EARLY -> {
                accepted.increment();
                log.trace("BDDP across {} while in quarantine: judged when it ends", link);
            }
        }
    }

    /** Also when a probe held in quarantine makes the link, at the expiry (see {@link ProbeScheduler}). */
    static void domainFound(Link link) {
        log.info("broadcast domain {}: switches Beacon does not manage bridge these ports", link);
    }

    private void ignore(Verdict why, IOFSwitch sw, int inPort, String detail) {
        rejected.get(why).increment();
        log.debug("LLDP at {}/{} ignored ({}): {}", sw.getStringId(), inPort, why, detail);
    }

    private void unknownPort(IOFSwitch sw, int inPort, ProbeCodec.Result r) {
        unknownPort.increment();
        log.debug("probe sent from {}/{} at {}/{} ignored: not between two ports that are up",
                Dpids.toString(r.dpid()), r.port(), sw.getStringId(), inPort);
    }

    /** The counters, with {@code sent} the probes written so far. */
    DiscoveryCounters counters(long sent) {
        return new DiscoveryCounters(sent, accepted.sum(), rejected.get(Verdict.MALFORMED).sum(),
                rejected.get(Verdict.FOREIGN).sum(), rejected.get(Verdict.FORGED).sum(),
                rejected.get(Verdict.STALE).sum(), unknownPort.sum());
    }
}

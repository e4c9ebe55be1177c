package net.beaconcontroller.core.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.statistics.OFAggregateStatsReply;
import net.beaconcontroller.openflow.statistics.OFAggregateStatsRequest;
import net.beaconcontroller.openflow.statistics.OFDescStatsRequest;
import net.beaconcontroller.openflow.action.OFActions;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.openflow.statistics.OFFlowStatsReply;
import net.beaconcontroller.openflow.statistics.OFFlowStatsRequest;
import net.beaconcontroller.openflow.statistics.OFPortStatsReply;
import net.beaconcontroller.openflow.statistics.OFPortStatsRequest;
import net.beaconcontroller.openflow.statistics.OFQueueStatsReply;
import net.beaconcontroller.openflow.statistics.OFQueueStatsRequest;
import net.beaconcontroller.openflow.statistics.OFStatsRequestBody;
import net.beaconcontroller.openflow.statistics.OFTableStatsReply;
import net.beaconcontroller.openflow.statistics.OFTableStatsRequest;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.vendor.NiciraRole;
import net.beaconcontroller.web.floodlight.FloodlightStats;
import net.beaconcontroller.util.Dpids;

/**
 * Floodlight's switch endpoints ({@code /wm/core/controller/switches}, {@code /wm/core/switch/<dpid|all>/<stat>}) and
 * Beacon's own views of switches and listener pipelines. Statistics are asked of the switches and answered when they
 * reply: no server thread waits.
 */
@RestController
final class SwitchController {
    /** How long a switch has to answer a statistics request before the REST request fails with 504. */
    static final Duration SWITCH_TIMEOUT = Duration.ofSeconds(3);

    /** The statistics and features Floodlight serves for an OpenFlow 1.0 switch, in its order. */
    enum Stat {
        AGGREGATE, DESC, FEATURES, FLOW, PORT, QUEUE, TABLE;

        String text() {
            return name().toLowerCase();
        }
    }

    private final IBeaconProvider beacon;

    SwitchController(IBeaconProvider beacon) {
        this.beacon = beacon;
    }

    @GetMapping("/wm/core/controller/switches/json")
    List<Map<String, Object>> switches() {
        return sorted().stream().map(SwitchController::json).toList();
    }

    /** A switch as Floodlight lists it. */
    static Map<String, Object> json(IOFSwitch sw) {
        var m = new LinkedHashMap<String, Object>();
        m.put("switchDPID", sw.getStringId());
        // Floodlight prints the address with InetSocketAddress.toString(): "/127.0.0.1:50312".
        var a = sw.getRemoteAddress();
        m.put("inetAddress", "/" + a.getAddress().getHostAddress() + ":" + a.getPort());
        m.put("connectedSince", sw.getConnectedSince().toEpochMilli());
        return m;
    }

    /** Beacon's fuller view: what {@code beacon:switches} prints, plus the ports. */
    @GetMapping("/wm/beacon/switches/json")
    List<Map<String, Object>> beaconSwitches() {
        return sorted().stream().map(sw -> {
            var m = new LinkedHashMap<String, Object>();
            m.put("dpid", sw.getStringId());
            var a = sw.getRemoteAddress();
            m.put("address", a.getAddress().getHostAddress() + ":" + a.getPort());
            m.put("connectedSince", sw.getConnectedSince().toEpochMilli());
            m.put("ioThread", sw.getThreadName());
            m.put("messagesIn", sw.getMessagesIn());
            m.put("messagesOut", sw.getMessagesOut());
            var d = sw.getDescription();
            m.put("manufacturer", d.manufacturer());
            m.put("hardware", d.hardware());
            m.put("software", d.software());
            m.put("ports", FloodlightStats.portDesc(sw.getPorts()));
            return (Map<String, Object>) m;
        }).toList();
    }

    @GetMapping("/wm/beacon/listeners/json")
    Map<String, List<String>> listeners() {
        var m = new LinkedHashMap<String, List<String>>();
        for (var type : OFType.values()) {
            var pipeline = beacon.getPipeline(type);
            if (!pipeline.isEmpty()) {
                m.put(type.name(), pipeline);
            }
        }
        return m;
    }

    /** Which flow {@link #deleteFlow} removes: the match in ovs-ofctl syntax and the priority, as a strict delete. */
    record FlowKey(String match, Integer priority) {
    }

    /**
     * A switch's flows in ovs-ofctl's words, as people read them (Floodlight's flow statistics are for scripts):
     * match and actions as {@code ovs-ofctl dump-flows} prints them, counters and timeouts.
     */
    @GetMapping("/wm/beacon/switch/{dpid}/flows/json")
    CompletableFuture<List<Map<String, Object>>> flows(@PathVariable String dpid) {
        return connected(dpid).getStatistics(new OFStatsRequest(0, OFFlowStatsRequest.all()), SWITCH_TIMEOUT)
                .thenApply(replies -> entries(replies, OFFlowStatsReply.class, OFFlowStatsReply::entries).stream()
                        .map(SwitchController::flow).toList());
    }

    private static Map<String, Object> flow(OFFlowStatsEntry e) {
        var m = new LinkedHashMap<String, Object>();
        m.put("table", e.tableId());
        m.put("priority", e.priority());
        m.put("match", e.match().toString());
        m.put("actions", e.actions().isEmpty() ? "drop" : OFActions.toString(e.actions()));
        m.put("cookie", "0x" + Long.toHexString(e.cookie()));
        m.put("owner", FlowOwner.describe(e.cookie()));
        m.put("durationSeconds", e.durationSec() + e.durationNsec() / 1e9);
        m.put("idleTimeout", e.idleTimeout());
        m.put("hardTimeout", e.hardTimeout());
        m.put("packets", e.packetCount());
        m.put("bytes", e.byteCount());
        return m;
    }

    /**
     * Deletes one flow (strict: same match and priority) and answers once the switch has confirmed with a barrier
     * reply. The flow may come back if the app that wrote it writes it again.
     */
    @DeleteMapping("/wm/beacon/switch/{dpid}/flows/json")
    CompletableFuture<Map<String, Object>> deleteFlow(@PathVariable String dpid, @RequestBody FlowKey key) {
        if (key.match() == null || key.priority() == null) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "expected {\"match\": \"<ovs-ofctl match>\","
                    + " \"priority\": 0..65535}");
        }
        if (key.priority() < 0 || key.priority() > 0xffff) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "priority " + key.priority()
                    + " is out of range: expected 0..65535");
        }
        OFMatch match;
        try {
            match = OFMatch.parse(key.match());
        } catch (IllegalArgumentException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "match: " + e.getMessage());
        }
        var sw = connected(dpid);
        sw.write(OFFlowMod.builder().command(OFFlowMod.Command.DELETE_STRICT).match(match).priority(key.priority())
                .build());
        return sw.barrier(SWITCH_TIMEOUT).thenApply(reply -> Map.of("status", "deleted", "match", match.toString(),
                "priority", key.priority()));
    }

    /** Floodlight's role map, {@code {"<dpid>": "MASTER|SLAVE|EQUAL"}}: this controller's role on each switch. */
    @GetMapping("/wm/core/switch/{dpid}/role/json")
    Map<String, String> role(@PathVariable String dpid) {
        var result = new LinkedHashMap<String, String>();
        for (var sw : dpid.equalsIgnoreCase("all") ? sorted() : List.of(connected(dpid))) {
            result.put(sw.getStringId(), roleName(sw.getRole()));
        }
        return result;
    }

    /**
     * Body {@code {"role": "MASTER|SLAVE|EQUAL"}}: asks the switch for that role (Nicira role request) and answers with
     * the role granted. In a cluster the cluster decides roles and restores its own within a second; move a switch
     * there with {@code /wm/beacon/cluster/migrate/json}.
     */
    @PostMapping("/wm/core/switch/{dpid}/role/json")
    CompletableFuture<Map<String, String>> setRole(@PathVariable String dpid, @RequestBody Map<String, Object> body) {
        var wanted = switch (String.valueOf(body.get("role")).toUpperCase(java.util.Locale.ROOT)) {
            case "MASTER" -> NiciraRole.MASTER;
            case "SLAVE" -> NiciraRole.SLAVE;
            case "EQUAL" -> NiciraRole.OTHER;
            default -> throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                    "expected {\"role\": \"MASTER\"|\"SLAVE\"|\"EQUAL\"}, got " + body.get("role"));
        };
        var targets = dpid.equalsIgnoreCase("all") ? sorted() : List.of(connected(dpid));
        var result = new LinkedHashMap<String, String>();
        var pending = targets.stream().map(sw -> sw.setRole(wanted, SWITCH_TIMEOUT).thenAccept(granted -> {
            synchronized (result) {
                result.put(sw.getStringId(), roleName(granted));
            }
        })).toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(pending).thenApply(v -> {
            synchronized (result) {
                return new java.util.TreeMap<>(result);
            }
        });
    }

    /** Floodlight's names: OpenFlow's OFPCR_ROLE_* without the prefix; the Nicira extension's OTHER is EQUAL. */
    private static String roleName(NiciraRole role) {
        return role == NiciraRole.OTHER ? "EQUAL" : role.name();
    }

    @GetMapping("/wm/core/switch/{dpid}/{stat}/json")
    CompletableFuture<Object> stat(@PathVariable String dpid, @PathVariable String stat) {
        var kind = parseStat(stat);
        if (dpid.equalsIgnoreCase("all")) {
            var all = new LinkedHashMap<String, Object>();
            var pending = new ArrayList<CompletableFuture<?>>();
            for (var sw : sorted()) {
                all.put(sw.getStringId(), null);
                pending.add(stat(sw, kind).thenAccept(v -> {
                    synchronized (all) {
                        all.put(sw.getStringId(), v);
                    }
                }));
            }
            return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).thenApply(v -> {
                synchronized (all) {
                    return all;
                }
            });
        }
        return stat(connected(dpid), kind);
    }

    private CompletableFuture<Object> stat(IOFSwitch sw, Stat kind) {
        return switch (kind) {
            case FEATURES -> CompletableFuture.completedFuture(FloodlightStats.features(sw.getFeatures(), sw.getPorts()));
            case DESC -> ask(sw, OFDescStatsRequest.INSTANCE, replies -> FloodlightStats.desc(
                    (net.beaconcontroller.openflow.statistics.OFDescStatsReply) replies.get(0).body()));
            case PORT -> ask(sw, new OFPortStatsRequest(OFPort.NONE), replies -> FloodlightStats.port(
                    entries(replies, OFPortStatsReply.class, OFPortStatsReply::entries)));
            case FLOW -> ask(sw, OFFlowStatsRequest.all(), replies -> FloodlightStats.flows(
                    entries(replies, OFFlowStatsReply.class, OFFlowStatsReply::entries)));
            case AGGREGATE -> ask(sw, OFAggregateStatsRequest.all(), replies -> FloodlightStats.aggregate(
                    (OFAggregateStatsReply) replies.get(0).body()));
            case TABLE -> ask(sw, OFTableStatsRequest.INSTANCE, replies -> FloodlightStats.table(
                    entries(replies, OFTableStatsReply.class, OFTableStatsReply::entries)));
            case QUEUE -> ask(sw, new OFQueueStatsRequest(OFPort.ALL, OFQueueStatsRequest.ALL_QUEUES),
                    replies -> FloodlightStats.queue(entries(replies, OFQueueStatsReply.class,
                            OFQueueStatsReply::entries)));
        };
    }

    private static CompletableFuture<Object> ask(IOFSwitch sw, OFStatsRequestBody body,
            Function<List<OFStatsReply>, Object> answer) {
        return sw.getStatistics(new OFStatsRequest(0, body), SWITCH_TIMEOUT).thenApply(answer);
    }

    private static <R, E> List<E> entries(List<OFStatsReply> replies, Class<R> type, Function<R, List<E>> get) {
        var all = new ArrayList<E>();
        replies.forEach(r -> all.addAll(get.apply(type.cast(r.body()))));
        return all;
    }

    private static Stat parseStat(String text) {
        for (var s : Stat.values()) {
            if (s.text().equals(text)) {
                return s;
            }
        }
        var valid = new LinkedHashMap<String, String>();
        int i = 1;
        for (var s : Stat.values()) {
            valid.put(i++ + ")", s.text());
        }
        var problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "unknown statistic or feature '"
                + text + "'; valid for an OpenFlow 1.0 switch: " + String.join(", ", valid.values()));
        problem.setProperty("ERROR", problem.getDetail());
        problem.setProperty("Valid statistics and features strings are:", valid);
        throw new ErrorResponseException(HttpStatus.BAD_REQUEST, problem, null);
    }

    private IOFSwitch connected(String dpid) {
        long id;
        try {
            id = Dpids.parse(dpid);
        } catch (IllegalArgumentException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, e.getMessage());
        }
        var sw = beacon.getSwitches().get(id);
        if (sw == null) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "switch " + Dpids.toString(id)
                    + " is not connected");
        }
        return sw;
    }

    private List<IOFSwitch> sorted() {
        return beacon.getSwitches().values().stream().sorted(Comparator.comparingLong(IOFSwitch::getId)).toList();
    }
}

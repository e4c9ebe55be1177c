package net.beaconcontroller.statistics.web;

import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.statistics.IStatisticsService;
import net.beaconcontroller.statistics.PortBandwidth;
import net.beaconcontroller.util.Dpids;
import net.beaconcontroller.web.IWebManageable;
import net.beaconcontroller.web.Metrics;

/**
 * Floodlight v1.2's {@code /wm/statistics}: switching the collection on and off, and port bandwidth. Unlike v1.2, a
 * given port filters (v1.2 ignored it) and an unknown switch is a 404 (v1.2 failed).
 */
@Component
@RestController
public final class StatisticsWeb implements IWebManageable {
    private final IStatisticsService statistics;
    private final IBeaconProvider beacon;

    @Activate
    public StatisticsWeb(@Reference IStatisticsService statistics, @Reference IBeaconProvider beacon) {
        this.statistics = statistics;
        this.beacon = beacon;
    }

    @Override
    public List<Object> controllers() {
        return List.of(this);
    }

    @Override
    public void metrics(Metrics metrics) {
        var rx = metrics.gauge("beacon_port_receive_bits_per_second", "A port's receive rate over the last poll.");
        var tx = metrics.gauge("beacon_port_transmit_bits_per_second", "A port's transmit rate over the last poll.");
        for (var b : statistics.getBandwidth()) {
            rx.add(b.rxBitsPerSecond(), "dpid", Dpids.toString(b.dpid()), "port", OFPort.toString(b.port()));
            tx.add(b.txBitsPerSecond(), "dpid", Dpids.toString(b.dpid()), "port", OFPort.toString(b.port()));
        }
    }

    @RequestMapping(path = "/wm/statistics/config/{change}/json", method = {RequestMethod.POST, RequestMethod.PUT})
    Map<String, String> config(@PathVariable String change) {
        switch (change) {
            case "enable" -> statistics.setEnabled(true);
            case "disable" -> statistics.setEnabled(false);
            default -> throw new ResponseStatusException(HttpStatus.NOT_FOUND, "expected enable or disable, not '"
                    + change + "'");
        }
        return Map.of("statistics-collection", statistics.isEnabled() ? "enabled" : "disabled");
    }

    @GetMapping("/wm/statistics/bandwidth/{dpid}/{port}/json")
    List<Map<String, String>> bandwidth(@PathVariable String dpid, @PathVariable String port) {
        Long id = null;
        if (!dpid.equalsIgnoreCase("all")) {
            try {
                id = Dpids.parse(dpid);
            } catch (IllegalArgumentException e) {
                throw new ResponseStatusException(HttpStatus.BAD_REQUEST, e.getMessage());
            }
            if (!beacon.getSwitches().containsKey(id)) {
                throw new ResponseStatusException(HttpStatus.NOT_FOUND, "switch " + Dpids.toString(id)
                        + " is not connected");
            }
        }
        Integer number = null;
        if (!port.equalsIgnoreCase("all")) {
            try {
                number = OFPort.parse(port);
            } catch (IllegalArgumentException e) {
                throw new ResponseStatusException(HttpStatus.BAD_REQUEST, e.getMessage());
            }
        }
        var sw = id;
        var p = number;
        return statistics.getBandwidth().stream().filter(b -> (sw == null || b.dpid() == sw)
                && (p == null || b.port() == p)).map(StatisticsWeb::json).toList();
    }

    /** Floodlight's shape: every value a string, the time as {@link Date#toString()}. */
    private static Map<String, String> json(PortBandwidth b) {
        var m = new LinkedHashMap<String, String>();
        m.put("dpid", Dpids.toString(b.dpid()));
        m.put("port", b.port() == OFPort.LOCAL ? "local" : Integer.toString(b.port()));
        m.put("updated", Date.from(b.updated()).toString());
        m.put("bits-per-second-rx", Long.toString(b.rxBitsPerSecond()));
        m.put("bits-per-second-tx", Long.toString(b.txBitsPerSecond()));
        return m;
    }
}

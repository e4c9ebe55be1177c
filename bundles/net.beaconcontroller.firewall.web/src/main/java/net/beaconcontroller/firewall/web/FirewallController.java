package net.beaconcontroller.firewall.web;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;

import jakarta.servlet.http.HttpServletRequest;
import net.beaconcontroller.firewall.FirewallRule;
import net.beaconcontroller.firewall.FirewallRules;
import net.beaconcontroller.firewall.IFirewall;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.web.floodlight.FloodlightBody;

/**
 * Floodlight v1.2's firewall API with its paths, keys and texts. Where Floodlight answered a failure with HTTP 200,
 * Beacon keeps the text and sets the status code (400 bad request, 404 no such rule, 409 a similar rule exists); a
 * refused request changes nothing.
 */
@RestController
final class FirewallController {
    private static final String BASE = "/wm/firewall";

    private final IFirewall firewall;

    FirewallController(IFirewall firewall) {
        this.firewall = firewall;
    }

    @GetMapping(BASE + "/module/status/json")
    Map<String, String> status() {
        return Map.of("result", firewall.isEnabled() ? "firewall enabled" : "firewall disabled");
    }

    /** Floodlight's docs send {@code -d ''}; the body is not read. */
    @PutMapping(BASE + "/module/enable/json")
    Map<String, String> enable() {
        firewall.setEnabled(true);
        return statusDetails("success", "firewall running");
    }

    @GetMapping(BASE + "/module/enable/json")
    ResponseEntity<Map<String, String>> enableByGet() {
        return ResponseEntity.status(HttpStatus.METHOD_NOT_ALLOWED).body(statusDetails("failure",
                "Use PUT to enable firewall"));
    }

    @PutMapping(BASE + "/module/disable/json")
    Map<String, String> disable() {
        firewall.setEnabled(false);
        return statusDetails("success", "firewall stopped");
    }

    @GetMapping(BASE + "/module/disable/json")
    ResponseEntity<Map<String, String>> disableByGet() {
        return ResponseEntity.status(HttpStatus.METHOD_NOT_ALLOWED).body(statusDetails("failure",
                "Use PUT to disable firewall"));
    }

    @GetMapping(BASE + "/module/subnet-mask/json")
    Map<String, String> subnetMask() {
        return Map.of("subnet-mask", IPv4Address.toString(firewall.getSubnetMask()));
    }

    @PostMapping(BASE + "/module/subnet-mask/json")
    ResponseEntity<Map<String, String>> setSubnetMask(HttpServletRequest request) throws IOException {
        int mask;
        try {
            var text = FloodlightBody.fields(request).get("subnet-mask");
            if (text == null || text.isEmpty()) {
                throw new IllegalArgumentException("expected {\"subnet-mask\":\"A.B.C.D\"}");
            }
            mask = IPv4Address.parse(text);
            if (Integer.bitCount(~mask + 1) > 1) {
                throw new IllegalArgumentException(text + " is not a subnet mask (ones, then zeros:"
                        + " 255.255.255.0)");
            }
        } catch (IllegalArgumentException e) {
            return status(HttpStatus.BAD_REQUEST, "Error! Could not parse new subnet mask: " + e.getMessage());
        }
        firewall.setSubnetMask(mask);
        return status(HttpStatus.OK, "subnet mask set");
    }

    @GetMapping(BASE + "/rules/json")
    List<Map<String, Object>> rules() {
        return firewall.getRules().stream().map(RuleJson::toJson).toList();
    }

    @PostMapping(BASE + "/rules/json")
    ResponseEntity<Map<String, String>> add(HttpServletRequest request) throws IOException {
        FirewallRule rule;
        try {
            rule = FirewallRules.parse(FloodlightBody.fields(request));
        } catch (IllegalArgumentException e) {
            return status(HttpStatus.BAD_REQUEST, "Error! Could not parse firewall rule: " + e.getMessage());
        }
        var added = firewall.add(rule);
        if (added instanceof IFirewall.Added.Kept kept) {
            var body = new LinkedHashMap<String, String>();
            body.put("status", "Rule added");
            body.put("rule-id", Integer.toString(kept.rule().id()));
            return ResponseEntity.ok(body);
        }
        return status(HttpStatus.CONFLICT, "Error! A similar firewall rule already exists.");
    }

    @DeleteMapping(BASE + "/rules/json")
    ResponseEntity<Map<String, String>> delete(HttpServletRequest request) throws IOException {
        int id;
        try {
            var text = FloodlightBody.fields(request).get("ruleid");
            if (text == null || text.isEmpty()) {
                throw new IllegalArgumentException("expected {\"ruleid\":\"<id>\"}");
            }
            try {
                id = Integer.parseInt(text.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("ruleid '" + text + "' is not a whole number", e);
            }
        } catch (IllegalArgumentException e) {
            return status(HttpStatus.BAD_REQUEST, "Error! Could not parse the rule id: " + e.getMessage());
        }
        return firewall.remove(id).isPresent() ? status(HttpStatus.OK, "Rule deleted")
                : status(HttpStatus.NOT_FOUND, "Error! Can't delete, a rule with this ID doesn't exist.");
    }

    private static Map<String, String> statusDetails(String status, String details) {
        var m = new LinkedHashMap<String, String>();
        m.put("status", status);
        m.put("details", details);
        return m;
    }

    private static ResponseEntity<Map<String, String>> status(HttpStatus code, String text) {
        return ResponseEntity.status(code).body(Map.of("status", text));
    }
}

package net.beaconcontroller.config.web;

import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import net.beaconcontroller.config.ISettings;
import net.beaconcontroller.config.Setting;
import net.beaconcontroller.web.IWebManageable;

/**
 * Beacon's settings over REST, {@code /wm/beacon/settings}: every setting with its value, default, source and what it
 * allows; a change is checked and applied as {@code beacon:config set} does. The web server's own settings are read
 * only here: a change to them would restart the server under the request, or let a web client change the
 * credentials that guard it.
 */
@Component
@RestController
public final class SettingsWeb implements IWebManageable {
    /** The body of a change. */
    record Change(String value, Boolean save) {
    }

    private final ISettings settings;

    @Activate
    public SettingsWeb(@Reference ISettings settings) {
        this.settings = settings;
    }

    @Override
    public List<Object> controllers() {
        return List.of(this);
    }

    @GetMapping("/wm/beacon/settings/json")
    List<Setting> all() {
        return settings.getSettings();
    }

    @GetMapping("/wm/beacon/settings/{key}/json")
    Setting one(@PathVariable String key) {
        return settings.getSetting(key).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND,
                "no setting '" + key + "'"));
    }

    @PutMapping("/wm/beacon/settings/{key}/json")
    ResponseEntity<Map<String, Object>> set(@PathVariable String key, @RequestBody Change change)
            throws InterruptedException {
        if (change.value() == null) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "the body needs \"value\"");
        }
        if (key.startsWith("web.")) {
            throw new ResponseStatusException(HttpStatus.FORBIDDEN, key + " is changed in beacon.properties or on"
                    + " the console, not over the web");
        }
        if (settings.getSetting(key).isEmpty()) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no setting '" + key + "'");
        }
        var outcome = settings.set(key, change.value(), Boolean.TRUE.equals(change.save()));
        if (!outcome.applied()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, outcome.message());
        }
        return ResponseEntity.ok(Map.of("setting", settings.getSetting(key).orElseThrow(), "result",
                outcome.message()));
    }
}

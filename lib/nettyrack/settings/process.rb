# frozen_string_literal: true

require_relative "../setting"

module Nettyrack
  # SETTINGS rows (settings.rb) of the process around the server: the files it writes (state
  # file, stdout/stderr), its name, and what a config file hands it as Ruby objects (hooks, the
  # low-level error handler, an app). Puma spells all of these the same way, so its config
  # files and flags carry over (PumaDSL); the hooks and the handler have no flag.
  #
  # Flow: SETTINGS rows → CLI / config file → Configuration → Launcher (StdioRedirect, the app),
  #   Lifetime (StateFile, Hooks, the tag in the boot line).
  module Settings
    PATH = ->(value) { Coerce.path(value) }

    PROCESS = [
      Setting.new(:state_path, nil, PATH, group: :process, flags: ["-S", "--state FILE"],
                                          help: ["write pid, control URL and token to FILE (YAML, as Puma's",
                                                 "state file) once serving: `nettyrack ctl -S FILE stats`"]),
      Setting.new(:state_permission, nil, ->(value) { Coerce.count(value) }, group: :process, # an octal mode, 0640
                                                                             dsl: true),
      Setting.new(:tag, nil, :text, group: :process, flags: ["--tag NAME"],
                                    help: "name this server in its boot line and state file"),
      Setting.new(:redirect_stdout, nil, PATH, group: :process, flags: ["--redirect-stdout FILE"], dsl: :stdout_redirect,
                                               help: "send stdout (boot lines, access log) to FILE; SIGHUP reopens it"),
      Setting.new(:redirect_stderr, nil, PATH, group: :process, flags: ["--redirect-stderr FILE"], dsl: :stdout_redirect,
                                               help: "send stderr (errors, warnings) to FILE; SIGHUP reopens it"),
      Setting.new(:redirect_append, false, :boolean, group: :process, flags: ["--[no-]redirect-append"], bare: true,
                                                     dsl: :stdout_redirect,
                                                     help: "append to those files instead of truncating them at boot"),
      # { event => [callables] }: on_booted, on_restart, on_stopped, on_worker_boot (run once)...
      Setting.new(:hooks, {}.freeze, ->(value) { value }, group: :process, dsl: :on_booted), # and the other hooks

      # a callable (exception, env, status) → a Rack response, for an app that raised
      Setting.new(:lowlevel_error_handler, nil, ->(value) { value }, group: :process, dsl: :lowlevel_error_handler),
      # a Rack app given by the config file (Puma's `app`), served instead of config.ru
      Setting.new(:app, nil, ->(value) { value }, group: :process, dsl: :app),
      # the lines saying which of a Puma config's or command line's settings do not apply here
      Setting.new(:not_applied, [].freeze, :text, group: :process, into: :list, dsl: false)
    ].freeze
  end
end

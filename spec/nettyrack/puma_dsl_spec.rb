# frozen_string_literal: true

require "fileutils"
require "tmpdir"
require "nettyrack/dsl"

# A Puma config file loads unchanged: each of Puma's config methods is honoured, runs once, or
# is answered with a line for boot; none is an error.
RSpec.describe Nettyrack::PumaDSL do
  let(:dir) { Dir.mktmpdir("nettyrack-puma-dsl") }
  after { FileUtils.rm_rf(dir) }

  # Every public config method of Puma's DSL, 5.6 to 8.0 (lib/puma/dsl.rb), old names included.
  PUMA_METHODS = %i[
    activate_control_app after_booted after_refork after_stopped after_worker_boot after_worker_fork
    after_worker_shutdown allow_underscore_headers app before_fork before_refork before_restart
    before_thread_exit before_thread_start before_worker_boot before_worker_fork before_worker_shutdown bind
    bind_to_activated_sockets clean_thread_locals clear_binds! cluster custom_logger debug default_host
    directory drain_on_shutdown early_hints enable_keep_alives environment extra_runtime_dependencies
    fiber_per_request first_data_timeout force_shutdown_after fork_worker get http_content_length_limit
    idle_timeout inject io_selector_backend load log_formatter log_requests lowlevel_error_handler
    max_fast_inline max_io_threads max_keep_alive mutate_stdout_and_stderr_to_sync_on_write nakayoshi_fork
    on_booted on_refork on_restart on_stopped on_thread_exit on_thread_start on_worker_boot on_worker_fork
    on_worker_shutdown out_of_band persistent_timeout pidfile plugin port preload_app! prune_bundler
    queue_requests quiet rack_url_scheme rackup raise_exception_on_sigterm restart_command set_default_host
    set_remote_address shutdown_debug silence_fork_callback_warning silence_single_worker_warning single
    ssl_bind state_path state_permission stdout_redirect supported_http_methods tag threads
    wait_for_less_busy_worker worker_boot_timeout worker_check_interval worker_culling_strategy
    worker_shutdown_timeout worker_timeout workers
  ].freeze

  def load_config(text, name: "puma.rb")
    path = File.join(dir, name)
    File.write(path, text)
    Nettyrack::DSL.load(path)
  end

  it "defines every one of Puma's config methods" do
    expect(PUMA_METHODS.reject { |name| Nettyrack::DSL.public_method_defined?(name) }).to eq([])
  end

  it "loads Rails' generated config/puma.rb unchanged" do
    layer = load_config(<<~RUBY)
      max_threads_count = ENV.fetch("RAILS_MAX_THREADS") { 5 }
      min_threads_count = ENV.fetch("RAILS_MIN_THREADS") { max_threads_count }
      threads min_threads_count, max_threads_count
      worker_timeout 3600 if ENV.fetch("RAILS_ENV", "development") == "development"
      port ENV.fetch("PORT") { 3000 }
      environment ENV.fetch("RAILS_ENV") { "development" }
      pidfile ENV.fetch("PIDFILE") { "tmp/pids/server.pid" }
      plugin :tmp_restart
    RUBY
    expect(layer.except(:not_applied)).to eq(threads: [5, 5], binds: [Nettyrack::Bind.tcp("0.0.0.0", 3000)],
                                             environment: "development", pidfile: "tmp/pids/server.pid", tmp_restart: true)
    expect(layer[:not_applied]).to eq(["nettyrack: `worker_timeout 3600' (#{dir}/puma.rb:4): not applied: " \
                                       "#{Nettyrack::PumaAnswers::WORKER_TIMEOUTS}"])
  end

  it "takes Puma's spellings of nettyrack's settings" do
    expect(load_config(<<~RUBY)).to eq(keep_alive_timeout: 25, header_timeout: 40, max_body_size: 1_048_576, access_log: :stdout,
      persistent_timeout 25
      first_data_timeout 40
      http_content_length_limit 1_048_576
      log_requests
      force_shutdown_after 12
      set_remote_address proxy_protocol: :v1
      state_path "tmp/pids/puma.state"
      state_permission 0o640
      tag "shop"
      stdout_redirect "log/out.log", "log/err.log", true
    RUBY
                                       shutdown_timeout: 12, proxy_protocol: true, state_path: "tmp/pids/puma.state",
                                       state_permission: 0o640, tag: "shop", redirect_stdout: "log/out.log",
                                       redirect_stderr: "log/err.log", redirect_append: true)
    expect(load_config("log_requests false\nforce_shutdown_after :immediately\n"))
      .to eq(access_log: nil, shutdown_timeout: 0)
    expect(load_config("force_shutdown_after\n")).to eq(shutdown_timeout: Nettyrack::PumaDSL::FOREVER)
  end

  it "keeps the hooks, in order, by the event they run at (Puma 7's names and the old ones)" do
    layer = load_config(<<~RUBY)
      on_booted { :one }
      after_booted { :two }
      before_restart { :restart }
      on_stopped { :stopped }
      on_worker_boot { :boot }
      before_worker_shutdown(:key) { :shutdown }
    RUBY
    expect(layer[:hooks].transform_values { |blocks| blocks.map(&:call) })
      .to eq(booted: %i[one two], restart: [:restart], stopped: [:stopped], worker_boot: [:boot], worker_shutdown: [:shutdown])
    expect(layer[:not_applied].map { |line| line[/`[^']*'/] }).to eq(["`on_worker_boot { ... }'", "`before_worker_shutdown { ... }'"])
    expect(layer[:not_applied].first).to include("runs once, in the one process")
  end

  it "answers cluster mode and forking with one line each, naming the file's line" do
    layer = load_config(<<~RUBY)
      workers 4
      preload_app!
      fork_worker 500
      before_fork { raise "never run" }
      cluster { raise "never run" }
      single { tag "alone" }
      plugin :heroku
      drain_on_shutdown
      set_remote_address header: "X-Forwarded-For"
    RUBY
    expect(layer[:tag]).to eq("alone")
    said = layer[:not_applied].map { |line| line.match(/\Anettyrack: `([^']*)' \(([^)]*)\): /).captures }
    expect(said.map { |spelled, where| [spelled, where.sub(dir, "DIR")] }.first(6))
      .to eq([["workers 4", "DIR/puma.rb:1"], ["preload_app!", "DIR/puma.rb:2"], ["fork_worker 500", "DIR/puma.rb:3"],
              ["before_fork { ... }", "DIR/puma.rb:4"], ["cluster { ... }", "DIR/puma.rb:5"], ["plugin :heroku", "DIR/puma.rb:7"]])
    expect(said.last.first).to start_with("set_remote_address {") # Hash#inspect differs between Ruby 3.1 and 3.4
    expect(layer[:not_applied].last).to include("X-Forwarded-For").and include("Rack::Request#ip")
  end

  it "loads another file, clears binds, and uses the default host it is given" do
    File.write(File.join(dir, "shared.rb"), "threads 2, 8\nport 3000\n")
    layer = load_config(<<~RUBY)
      load "#{dir}/shared.rb"
      clear_binds!
      set_default_host "127.0.0.1"
      port 4000
      inject { tag get(:environment, "none") }
    RUBY
    expect(layer).to eq(threads: [2, 8], binds: [Nettyrack::Bind.tcp("127.0.0.1", 4000)], tag: "none")
  end

  it "takes an app and a low-level error handler, as blocks or objects" do
    layer = load_config("app { |env| [200, {}, ['inline']] }\nlowlevel_error_handler { |e| [500, {}, []] }\n")
    expect(layer[:app].call({})).to eq([200, {}, ["inline"]])
    expect(layer[:lowlevel_error_handler].call(RuntimeError.new)).to eq([500, {}, []])
    expect(load_config("app Class.new { def self.call(_) = :ok }\n")[:app].call({}))
      .to eq(:ok)
    expect { load_config("lowlevel_error_handler 42\n") }
      .to raise_error(Nettyrack::ConfigError, /puma\.rb:1: lowlevel_error_handler needs a block or an object that responds to call/)
    expect { load_config("on_booted\n") }.to raise_error(Nettyrack::ConfigError, /puma\.rb:1: on_booted needs a block/)
  end

  it "gives activate_control_app's auto a unix socket of its own" do
    url = load_config("activate_control_app\n")[:control_url]
    expect(url).to be_a(Nettyrack::Bind)
    expect(url.path).to start_with(File.join(Dir.tmpdir, "nettyrack-control-#{Process.pid}-"))
  end
end

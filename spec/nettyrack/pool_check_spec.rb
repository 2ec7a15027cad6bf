# frozen_string_literal: true

require "nettyrack/boot_checks"

RSpec.describe Nettyrack::PoolCheck do
  # Stand-ins shaped as Sequel 5's Database#pool (max_size, adapter_scheme) and Active Record
  # 6.1's connection handler (connection_pool_list; each pool's size and db_config.name).
  def with_sequel(*sizes)
    databases = sizes.map do |size|
      Struct.new(:pool, :adapter_scheme).new(Struct.new(:max_size).new(size), :jdbc)
    end
    hide_const("ActiveRecord") if defined?(ActiveRecord)
    stub_const("Sequel::DATABASES", databases)
    yield
  end

  def with_active_record(*sizes)
    config = Struct.new(:name)
    pools = sizes.map { |size| Struct.new(:size, :db_config).new(size, config.new("primary")) }
    base = Class.new
    handler = Struct.new(:connection_pool_list).new(pools)
    base.define_singleton_method(:connection_handler) { handler }
    hide_const("Sequel") if defined?(Sequel)
    stub_const("ActiveRecord::Base", base)
    yield
  end

  it "warns once per Sequel database whose pool is smaller than the worker threads" do
    with_sequel(4, 8, 16) do
      expect(described_class.warnings(8)).to eq([
        "nettyrack: warning: Sequel's pool (jdbc) holds at most 4 connections for 8 worker threads, so at most " \
        "4 requests query at once and the others wait for a connection; pass max_connections: 8 to Sequel.connect, " \
        "or run with -t 4"
      ])
    end
  end

  it "warns for an Active Record pool smaller than the worker threads, naming its configuration" do
    with_active_record(5) do
      expect(described_class.warnings(8).first)
        .to start_with("nettyrack: warning: Active Record's pool (primary) holds at most 5 connections for 8 worker threads")
        .and end_with("set pool: 8 in config/database.yml, or run with -t 5")
    end
    with_active_record(1) do
      expect(described_class.warnings(2).first).to include("holds at most 1 connection for 2 worker threads")
    end
  end

  it "says nothing when the pools are large enough, or there is no database library" do
    with_active_record(5) { expect(described_class.warnings(5)).to eq([]) }
    with_sequel(16) { expect(described_class.warnings(8)).to eq([]) }
    hide_const("Sequel") if defined?(Sequel)
    hide_const("ActiveRecord") if defined?(ActiveRecord)
    expect(described_class.warnings(64)).to eq([])
  end

  it "skips a pool that cannot say its size instead of failing the boot" do
    with_sequel(nil) { expect(described_class.warnings(8)).to eq([]) }
    broken = Class.new { def self.connection_handler = raise("adapter not loaded") }
    hide_const("Sequel") if defined?(Sequel)
    stub_const("ActiveRecord::Base", broken)
    expect(described_class.warnings(8)).to eq([])
  end

  it "fits the wait threads to the largest pool: threads past it would only wait for a connection" do
    with_active_record(5) { expect(described_class.wait_threads(8, 4)).to eq(1) }
    with_sequel(4, 12) { expect(described_class.wait_threads(8, 4)).to eq(8) }
    with_sequel(20) { expect(described_class.wait_threads(8, 4)).to eq(8) }
    with_sequel(2) { expect(described_class.wait_threads(8, 4)).to eq(0) }
    with_sequel(nil) { expect(described_class.wait_threads(8, 4)).to eq(8) }
    hide_const("Sequel") if defined?(Sequel)
    hide_const("ActiveRecord") if defined?(ActiveRecord)
    expect(described_class.wait_threads(8, 4)).to eq(8)
  end

  it "is among the boot checks, with Rails' own warnings" do
    with_sequel(2) do
      expect(Nettyrack::BootChecks.warnings(4)).to eq(described_class.warnings(4))
      expect(Nettyrack::BootChecks.warnings(4).size).to eq(1)
    end
  end
end

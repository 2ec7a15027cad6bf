# frozen_string_literal: true

require "java"

module Nettyrack
  module War
    # Writes a zip (a WAR, a jar) with the JDK's zip streams: a manifest first when given, then
    # every directory and entry in name order. An entry's source is a file path (String) or
    # Bytes (content made here). Jars are stored as they are: they are compressed already, and
    # the executable WAR unpacks them at every start.
    module Archive
      Bytes = Struct.new(:data)

      module_function

      # entries: {"WEB-INF/config.ru" => "/app/config.ru", "WEB-INF/web.xml" => Bytes.new(xml)}.
      # manifest: {"Main-Class" => "..."} or nil.
      def write(path, entries, manifest: nil)
        out = java.io.BufferedOutputStream.new(java.io.FileOutputStream.new(path), 1 << 16)
        zip = manifest ? java.util.jar.JarOutputStream.new(out, java_manifest(manifest)) : java.util.zip.ZipOutputStream.new(out)
        written = manifest ? ["META-INF/"] : []
        entries.keys.sort.each do |name|
          directories(name).each { |dir| add_directory(zip, dir, written) }
          add(zip, name, entries.fetch(name))
        end
        zip.close
        entries.size
      ensure
        out&.close
      end

      def java_manifest(attributes)
        java.util.jar.Manifest.new.tap do |manifest|
          main = manifest.main_attributes
          main.put(java.util.jar.Attributes::Name::MANIFEST_VERSION, "1.0")
          attributes.each { |key, value| main.put_value(key, value) }
        end
      end

      def directories(name)
        parts = name.split("/")[0...-1]
        parts.each_index.map { |i| "#{parts[0..i].join('/')}/" }
      end

      def new_entry(name, source)
        entry = java.util.zip.ZipEntry.new(name)
        return entry unless name.end_with?(".jar") && !source.is_a?(Bytes)

        crc = java.util.zip.CRC32.new
        input = java.util.zip.CheckedInputStream.new(java.nio.file.Files.new_input_stream(java.nio.file.Paths.get(source)), crc)
        input.transfer_to(java.io.OutputStream.null_output_stream)
        input.close
        entry.method = java.util.zip.ZipEntry::STORED
        entry.size = entry.compressed_size = File.size(source)
        entry.crc = crc.value
        entry
      end

      def add_directory(zip, dir, written)
        return if written.include?(dir)

        written << dir
        zip.put_next_entry(java.util.zip.ZipEntry.new(dir))
        zip.close_entry
      end

      def add(zip, name, source)
        zip.put_next_entry(new_entry(name, source))
        if source.is_a?(Bytes)
          zip.write(source.data.to_java_bytes)
        else
          java.nio.file.Files.copy(java.nio.file.Paths.get(source), zip)
        end
        zip.close_entry
      end
    end
  end
end

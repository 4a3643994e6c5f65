#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <jpeglib.h>

/* libjpeg reports fatal errors by calling error_exit, which must not return. Swift cannot call setjmp, so
   these small wrappers hold the jump point in C: each one sets it, calls libjpeg, and answers 0 with the
   library's message in `message` when libjpeg gave up. No Swift frame lies between setjmp and longjmp. */

typedef struct vprinter_jpeg {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr error;
    jmp_buf jump;
    int created;
    char message[JMSG_LENGTH_MAX];
} vprinter_jpeg;

static void vprinter_jpeg_error_exit(j_common_ptr info) {
    vprinter_jpeg *decoder = (vprinter_jpeg *)info->client_data;
    (*info->err->format_message)(info, decoder->message);
    longjmp(decoder->jump, 1);
}

static void vprinter_jpeg_output_message(j_common_ptr info) { (void)info; }

static inline vprinter_jpeg *vprinter_jpeg_new(void) { return (vprinter_jpeg *)calloc(1, sizeof(vprinter_jpeg)); }

static inline void vprinter_jpeg_free(vprinter_jpeg *decoder) {
    if (decoder->created) jpeg_destroy_decompress(&decoder->info);
    free(decoder);
}

/* Reads the header of `size` bytes at `data` (which must stay valid until vprinter_jpeg_free), keeping the
   APP1 (Exif) and APP14 (Adobe) markers. */
static inline int vprinter_jpeg_read_header(vprinter_jpeg *decoder, const unsigned char *data, unsigned long size) {
    decoder->info.err = jpeg_std_error(&decoder->error);
    decoder->error.error_exit = vprinter_jpeg_error_exit;
    decoder->error.output_message = vprinter_jpeg_output_message;
    decoder->info.client_data = decoder;
    if (setjmp(decoder->jump)) return 0;
    jpeg_create_decompress(&decoder->info);
    decoder->created = 1;
    jpeg_mem_src(&decoder->info, data, size);
    jpeg_save_markers(&decoder->info, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&decoder->info, JPEG_APP0 + 14, 0xFFFF);
    if (jpeg_read_header(&decoder->info, TRUE) != JPEG_HEADER_OK) return 0;
    return 1;
}

static inline int vprinter_jpeg_start(vprinter_jpeg *decoder, J_COLOR_SPACE output) {
    if (setjmp(decoder->jump)) return 0;
    decoder->info.out_color_space = output;
    return jpeg_start_decompress(&decoder->info) ? 1 : 0;
}

/* Reads the next scanline into `row`; answers 0 on a fatal error. */
static inline int vprinter_jpeg_read_line(vprinter_jpeg *decoder, unsigned char *row) {
    if (setjmp(decoder->jump)) return 0;
    JSAMPROW rows[1] = {row};
    return jpeg_read_scanlines(&decoder->info, rows, 1) == 1 ? 1 : 0;
}

/* Compression, in the same way: each wrapper sets the jump point, calls libjpeg, and answers 0 with the library's
   message when libjpeg gave up. The image is compressed into memory that libjpeg grows as it writes
   (jpeg_mem_dest); vprinter_jpeg_writer_free frees it. */

typedef struct vprinter_jpeg_writer {
    struct jpeg_compress_struct info;
    struct jpeg_error_mgr error;
    jmp_buf jump;
    int created;
    unsigned char *buffer;
    unsigned long size;
    char message[JMSG_LENGTH_MAX];
} vprinter_jpeg_writer;

static void vprinter_jpeg_writer_error_exit(j_common_ptr info) {
    vprinter_jpeg_writer *writer = (vprinter_jpeg_writer *)info->client_data;
    (*info->err->format_message)(info, writer->message);
    longjmp(writer->jump, 1);
}

static inline vprinter_jpeg_writer *vprinter_jpeg_writer_new(void) {
    return (vprinter_jpeg_writer *)calloc(1, sizeof(vprinter_jpeg_writer));
}

static inline void vprinter_jpeg_writer_free(vprinter_jpeg_writer *writer) {
    if (writer->created) jpeg_destroy_compress(&writer->info);
    free(writer->buffer);
    free(writer);
}

/* Starts a baseline JFIF image of `width` x `height` pixels, given as rows of 8-bit gray (`gray` 1) or of Cairo
   RGB24 pixels, B, G, R and an unused byte (`gray` 0; libjpeg-turbo's JCS_EXT_BGRX), at `quality` (0-100) and
   `density` dots per inch (JFIF density unit 1). */
static inline int vprinter_jpeg_writer_start(vprinter_jpeg_writer *writer, unsigned int width, unsigned int height,
                                             int gray, int quality, unsigned short density) {
    writer->info.err = jpeg_std_error(&writer->error);
    writer->error.error_exit = vprinter_jpeg_writer_error_exit;
    writer->error.output_message = vprinter_jpeg_output_message;
    writer->info.client_data = writer;
    if (setjmp(writer->jump)) return 0;
    jpeg_create_compress(&writer->info);
    writer->created = 1;
    jpeg_mem_dest(&writer->info, &writer->buffer, &writer->size);
    writer->info.image_width = width;
    writer->info.image_height = height;
    writer->info.input_components = gray ? 1 : 4;
    writer->info.in_color_space = gray ? JCS_GRAYSCALE : JCS_EXT_BGRX;
    jpeg_set_defaults(&writer->info);
    jpeg_set_quality(&writer->info, quality, TRUE);
    writer->info.write_JFIF_header = TRUE;
    writer->info.density_unit = 1;
    writer->info.X_density = density;
    writer->info.Y_density = density;
    jpeg_start_compress(&writer->info, TRUE);
    return 1;
}

/* Compresses the next row; answers 0 on a fatal error. */
static inline int vprinter_jpeg_writer_write_line(vprinter_jpeg_writer *writer, const unsigned char *row) {
    if (setjmp(writer->jump)) return 0;
    JSAMPROW rows[1] = {(JSAMPROW)row};
    return jpeg_write_scanlines(&writer->info, rows, 1) == 1 ? 1 : 0;
}

/* Ends the image: then `buffer` holds `size` bytes of JPEG data. */
static inline int vprinter_jpeg_writer_finish(vprinter_jpeg_writer *writer) {
    if (setjmp(writer->jump)) return 0;
    jpeg_finish_compress(&writer->info);
    return 1;
}
